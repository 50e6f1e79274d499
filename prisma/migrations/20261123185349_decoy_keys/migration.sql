-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ApiKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "publicId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
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
    CONSTRAINT "ApiKey_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ApiKey" ("allowedIps", "createdAt", "digest", "displayFragment", "environment", "expiresAt", "id", "label", "lastUsedAt", "lastUsedIp", "leakSeenAt", "leakSource", "leakUrl", "publicId", "rateLimit", "rateLimitByOperator", "revokedAt", "revokedReason", "scopes", "successorId", "userId", "version") SELECT "allowedIps", "createdAt", "digest", "displayFragment", "environment", "expiresAt", "id", "label", "lastUsedAt", "lastUsedIp", "leakSeenAt", "leakSource", "leakUrl", "publicId", "rateLimit", "rateLimitByOperator", "revokedAt", "revokedReason", "scopes", "successorId", "userId", "version" FROM "ApiKey";
DROP TABLE "ApiKey";
ALTER TABLE "new_ApiKey" RENAME TO "ApiKey";
CREATE UNIQUE INDEX "ApiKey_publicId_key" ON "ApiKey"("publicId");
CREATE UNIQUE INDEX "ApiKey_digest_key" ON "ApiKey"("digest");
CREATE UNIQUE INDEX "ApiKey_successorId_key" ON "ApiKey"("successorId");
CREATE INDEX "ApiKey_userId_createdAt_idx" ON "ApiKey"("userId", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
