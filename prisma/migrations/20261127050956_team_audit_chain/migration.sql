-- The activity chain of each team (lib/audit.ts recordTeamAudit): its rows,
-- and its head on the Team row. Every chain starts empty here. The first row
-- of a personal team, which commits to the head of its account chain, is
-- written by admin audit:start-team-chains in npm run db:deploy, since it
-- takes the chain key, which SQL has not. (No quotes in these comments: the
-- PostgreSQL adapter reads them as strings.)
-- CreateTable
CREATE TABLE "TeamAuditEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "keyId" TEXT,
    "actorKind" TEXT NOT NULL,
    "actorId" TEXT,
    "ip" TEXT,
    "userAgent" TEXT,
    "details" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "hash" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 1,
    CONSTRAINT "TeamAuditEvent_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Team" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "personalOfId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "keysChangedAt" DATETIME,
    "filesChangedAt" DATETIME,
    "auditSeq" INTEGER NOT NULL DEFAULT 0,
    "auditHash" TEXT NOT NULL DEFAULT '',
    "auditSeal" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "Team_personalOfId_fkey" FOREIGN KEY ("personalOfId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Team" ("createdAt", "filesChangedAt", "id", "keysChangedAt", "name", "personalOfId", "slug") SELECT "createdAt", "filesChangedAt", "id", "keysChangedAt", "name", "personalOfId", "slug" FROM "Team";
DROP TABLE "Team";
ALTER TABLE "new_Team" RENAME TO "Team";
CREATE UNIQUE INDEX "Team_slug_key" ON "Team"("slug");
CREATE UNIQUE INDEX "Team_personalOfId_key" ON "Team"("personalOfId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "TeamAuditEvent_teamId_createdAt_idx" ON "TeamAuditEvent"("teamId", "createdAt");

-- CreateIndex
CREATE INDEX "TeamAuditEvent_teamId_keyId_createdAt_idx" ON "TeamAuditEvent"("teamId", "keyId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "TeamAuditEvent_teamId_seq_key" ON "TeamAuditEvent"("teamId", "seq");
