-- Per-IP counts by the client an address counts as (lib/auth/client-ip.ts
-- countedClient): an IPv4 address, or an IPv6 /64. The real address stays in
-- "ip". The rows already there get a client below, so no count starts over at
-- the upgrade: an IPv4 address, mapped or not, is its own client, and an IPv6
-- one keeps its whole address (SQL cannot take a /64 on both databases) until
-- it leaves the windows, within the hour. (No semicolon in these comments: the
-- PostgreSQL adapter splits a script at each one.)
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_AuthAttempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "ip" TEXT NOT NULL,
    "client" TEXT NOT NULL DEFAULT '',
    "success" BOOLEAN NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "device" TEXT
);
INSERT INTO "new_AuthAttempt" ("createdAt", "device", "email", "id", "ip", "kind", "success") SELECT "createdAt", "device", "email", "id", "ip", "kind", "success" FROM "AuthAttempt";
DROP TABLE "AuthAttempt";
ALTER TABLE "new_AuthAttempt" RENAME TO "AuthAttempt";
CREATE INDEX "AuthAttempt_kind_email_createdAt_idx" ON "AuthAttempt"("kind", "email", "createdAt");
CREATE INDEX "AuthAttempt_kind_client_createdAt_idx" ON "AuthAttempt"("kind", "client", "createdAt");
CREATE TABLE "new_PendingSignUp" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tokenDigest" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "ip" TEXT NOT NULL,
    "client" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL
);
INSERT INTO "new_PendingSignUp" ("createdAt", "email", "expiresAt", "id", "ip", "passwordHash", "tokenDigest") SELECT "createdAt", "email", "expiresAt", "id", "ip", "passwordHash", "tokenDigest" FROM "PendingSignUp";
DROP TABLE "PendingSignUp";
ALTER TABLE "new_PendingSignUp" RENAME TO "PendingSignUp";
CREATE UNIQUE INDEX "PendingSignUp_tokenDigest_key" ON "PendingSignUp"("tokenDigest");
CREATE INDEX "PendingSignUp_email_idx" ON "PendingSignUp"("email");
CREATE INDEX "PendingSignUp_expiresAt_idx" ON "PendingSignUp"("expiresAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Backfill
UPDATE "AuthAttempt" SET "client" = CASE WHEN "ip" LIKE '::ffff:%.%' THEN substr("ip", 8) ELSE "ip" END;
UPDATE "PendingSignUp" SET "client" = CASE WHEN "ip" LIKE '::ffff:%.%' THEN substr("ip", 8) ELSE "ip" END;
