-- Invitations to join a team by mail (lib/teams/invitations.ts): one address,
-- one role, a link that works 7 days and once. Only the link token SHA-256 is
-- kept. A new table: no existing row changes.
-- CreateTable
CREATE TABLE "Invitation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "tokenDigest" TEXT NOT NULL,
    "invitedById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "acceptedAt" DATETIME,
    "acceptedBy" TEXT,
    "revokedAt" DATETIME,
    CONSTRAINT "Invitation_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_tokenDigest_key" ON "Invitation"("tokenDigest");

-- CreateIndex
CREATE INDEX "Invitation_teamId_email_idx" ON "Invitation"("teamId", "email");

-- CreateIndex
CREATE INDEX "Invitation_teamId_createdAt_idx" ON "Invitation"("teamId", "createdAt");
