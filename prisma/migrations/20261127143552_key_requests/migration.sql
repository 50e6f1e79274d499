-- CreateTable
CREATE TABLE "KeyRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "publicId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "expiresAt" DATETIME,
    "scopes" TEXT NOT NULL DEFAULT 'all',
    "allowedIps" TEXT,
    "rateLimit" INTEGER,
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedById" TEXT,
    "decidedAt" DATETIME,
    "comment" TEXT,
    "revealedAt" DATETIME,
    "keyPublicId" TEXT,
    CONSTRAINT "KeyRequest_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "KeyRequest_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "KeyRequest_publicId_key" ON "KeyRequest"("publicId");

-- CreateIndex
CREATE INDEX "KeyRequest_teamId_status_createdAt_idx" ON "KeyRequest"("teamId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "KeyRequest_userId_createdAt_idx" ON "KeyRequest"("userId", "createdAt");
