-- Service accounts (lib/teams/service-accounts.ts): named members of a team
-- that are not people and own keys, and the owner column on ApiKey, empty for
-- every key so far. SQLite rebuilds the ApiKey table to add a column with a
-- foreign key, which drops its version trigger: it is made again below,
-- watching the new column too, so handing a key to a service account raises
-- its version and every instance cache sees the change.
-- CreateTable
CREATE TABLE "ServiceAccount" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT,
    CONSTRAINT "ServiceAccount_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ApiKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "publicId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "serviceAccountId" TEXT,
    "environment" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "displayFragment" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME,
    "lastUsedIp" TEXT,
    "expiresAt" DATETIME,
    "revokedAt" DATETIME,
    "revokedReason" TEXT,
    "leakSource" TEXT,
    "leakUrl" TEXT,
    "leakSeenAt" DATETIME,
    "decoy" BOOLEAN NOT NULL DEFAULT false,
    "scopes" TEXT NOT NULL DEFAULT 'all',
    "allowedIps" TEXT,
    "rateLimit" INTEGER,
    "rateLimitByOperator" BOOLEAN NOT NULL DEFAULT false,
    "version" INTEGER NOT NULL DEFAULT 0,
    "successorId" TEXT,
    CONSTRAINT "ApiKey_successorId_fkey" FOREIGN KEY ("successorId") REFERENCES "ApiKey" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "ApiKey_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ApiKey_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ApiKey_serviceAccountId_fkey" FOREIGN KEY ("serviceAccountId") REFERENCES "ServiceAccount" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_ApiKey" ("allowedIps", "createdAt", "decoy", "digest", "displayFragment", "environment", "expiresAt", "id", "label", "lastUsedAt", "lastUsedIp", "leakSeenAt", "leakSource", "leakUrl", "publicId", "rateLimit", "rateLimitByOperator", "revokedAt", "revokedReason", "scopes", "successorId", "teamId", "userId", "version") SELECT "allowedIps", "createdAt", "decoy", "digest", "displayFragment", "environment", "expiresAt", "id", "label", "lastUsedAt", "lastUsedIp", "leakSeenAt", "leakSource", "leakUrl", "publicId", "rateLimit", "rateLimitByOperator", "revokedAt", "revokedReason", "scopes", "successorId", "teamId", "userId", "version" FROM "ApiKey";
DROP TABLE "ApiKey";
ALTER TABLE "new_ApiKey" RENAME TO "ApiKey";
CREATE UNIQUE INDEX "ApiKey_publicId_key" ON "ApiKey"("publicId");
CREATE UNIQUE INDEX "ApiKey_digest_key" ON "ApiKey"("digest");
CREATE UNIQUE INDEX "ApiKey_successorId_key" ON "ApiKey"("successorId");
CREATE INDEX "ApiKey_userId_createdAt_idx" ON "ApiKey"("userId", "createdAt");
CREATE INDEX "ApiKey_teamId_createdAt_idx" ON "ApiKey"("teamId", "createdAt");
CREATE TRIGGER "ApiKey_version_rises" AFTER UPDATE ON "ApiKey"
FOR EACH ROW WHEN NEW."version" = OLD."version" AND (
    NEW."id" IS NOT OLD."id" OR NEW."publicId" IS NOT OLD."publicId" OR NEW."teamId" IS NOT OLD."teamId"
    OR NEW."userId" IS NOT OLD."userId" OR NEW."serviceAccountId" IS NOT OLD."serviceAccountId"
    OR NEW."environment" IS NOT OLD."environment" OR NEW."label" IS NOT OLD."label"
    OR NEW."digest" IS NOT OLD."digest" OR NEW."displayFragment" IS NOT OLD."displayFragment"
    OR NEW."createdAt" IS NOT OLD."createdAt" OR NEW."expiresAt" IS NOT OLD."expiresAt"
    OR NEW."revokedAt" IS NOT OLD."revokedAt" OR NEW."revokedReason" IS NOT OLD."revokedReason"
    OR NEW."leakSource" IS NOT OLD."leakSource" OR NEW."leakUrl" IS NOT OLD."leakUrl"
    OR NEW."leakSeenAt" IS NOT OLD."leakSeenAt" OR NEW."decoy" IS NOT OLD."decoy"
    OR NEW."scopes" IS NOT OLD."scopes" OR NEW."allowedIps" IS NOT OLD."allowedIps"
    OR NEW."rateLimit" IS NOT OLD."rateLimit" OR NEW."rateLimitByOperator" IS NOT OLD."rateLimitByOperator"
    OR NEW."successorId" IS NOT OLD."successorId"
)
BEGIN
    UPDATE "ApiKey" SET "version" = OLD."version" + 1 WHERE "id" = NEW."id";
END;
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "ServiceAccount_teamId_nameKey_key" ON "ServiceAccount"("teamId", "nameKey");
