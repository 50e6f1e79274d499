-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_AuditEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "keyId" TEXT,
    "ip" TEXT,
    "userAgent" TEXT,
    "details" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "hash" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "AuditEvent_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- Existing rows are numbered per user in the order they were written, and their
-- hashes are chained by the release's backfill (npm run db:deploy), since
-- SQLite has no SHA-256 in SQL.
INSERT INTO "new_AuditEvent" ("action", "createdAt", "details", "id", "ip", "keyId", "userAgent", "userId", "seq") SELECT "action", "createdAt", "details", "id", "ip", "keyId", "userAgent", "userId", ROW_NUMBER() OVER (PARTITION BY "userId" ORDER BY "createdAt", "id") FROM "AuditEvent";
DROP TABLE "AuditEvent";
ALTER TABLE "new_AuditEvent" RENAME TO "AuditEvent";
CREATE INDEX "AuditEvent_userId_createdAt_idx" ON "AuditEvent"("userId", "createdAt");
CREATE INDEX "AuditEvent_userId_keyId_createdAt_idx" ON "AuditEvent"("userId", "keyId", "createdAt");
CREATE UNIQUE INDEX "AuditEvent_userId_seq_key" ON "AuditEvent"("userId", "seq");
CREATE TABLE "new_User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "emailVerified" DATETIME,
    "image" TEXT,
    "passwordHash" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "keysChangedAt" DATETIME,
    "filesChangedAt" DATETIME,
    "totpSecret" TEXT,
    "totpEnabledAt" DATETIME,
    "totpLastStep" INTEGER,
    "passwordChangedAt" DATETIME,
    "auditSeq" INTEGER NOT NULL DEFAULT 0,
    "auditHash" TEXT NOT NULL DEFAULT ''
);
INSERT INTO "new_User" ("createdAt", "email", "emailVerified", "filesChangedAt", "id", "image", "keysChangedAt", "name", "passwordChangedAt", "passwordHash", "totpEnabledAt", "totpLastStep", "totpSecret", "updatedAt") SELECT "createdAt", "email", "emailVerified", "filesChangedAt", "id", "image", "keysChangedAt", "name", "passwordChangedAt", "passwordHash", "totpEnabledAt", "totpLastStep", "totpSecret", "updatedAt" FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
UPDATE "User" SET "auditSeq" = (SELECT COUNT(*) FROM "AuditEvent" WHERE "AuditEvent"."userId" = "User"."id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
