-- Teams (lib/teams/): a team owns keys, files and generations. Every
-- existing account gets its personal team, named "Personal", with a slug that
-- never changes ("personal-" and 12 random hex digits: never derived from an
-- email), the account as its owner; its keys, files and generations move into
-- it. The ApiKey table is rebuilt, so its version trigger is made again, with
-- the new column (tests/integration/key-version.test.ts checks both).
-- CreateTable
CREATE TABLE "Team" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "personalOfId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "keysChangedAt" DATETIME,
    "filesChangedAt" DATETIME,
    CONSTRAINT "Team_personalOfId_fkey" FOREIGN KEY ("personalOfId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Membership" (
    "teamId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("teamId", "userId"),
    CONSTRAINT "Membership_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Membership_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Personal teams for the accounts made before teams.
INSERT INTO "Team" ("id", "slug", "name", "personalOfId", "createdAt", "keysChangedAt", "filesChangedAt")
SELECT 'team_' || lower(hex(randomblob(12))), 'personal-' || lower(hex(randomblob(6))), 'Personal', "id", "createdAt",
       "keysChangedAt", "filesChangedAt"
FROM "User";
INSERT INTO "Membership" ("teamId", "userId", "role", "createdAt")
SELECT "id", "personalOfId", 'owner', "createdAt" FROM "Team" WHERE "personalOfId" IS NOT NULL;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ApiKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "publicId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
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
    CONSTRAINT "ApiKey_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ApiKey_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ApiKey" ("allowedIps", "createdAt", "decoy", "digest", "displayFragment", "environment", "expiresAt", "id", "label", "lastUsedAt", "lastUsedIp", "leakSeenAt", "leakSource", "leakUrl", "publicId", "rateLimit", "rateLimitByOperator", "revokedAt", "revokedReason", "scopes", "successorId", "userId", "version", "teamId") SELECT "allowedIps", "createdAt", "decoy", "digest", "displayFragment", "environment", "expiresAt", "id", "label", "lastUsedAt", "lastUsedIp", "leakSeenAt", "leakSource", "leakUrl", "publicId", "rateLimit", "rateLimitByOperator", "revokedAt", "revokedReason", "scopes", "successorId", "userId", "version", (SELECT "Team"."id" FROM "Team" WHERE "Team"."personalOfId" = "ApiKey"."userId") FROM "ApiKey";
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
    OR NEW."userId" IS NOT OLD."userId"
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
CREATE TABLE "new_Generation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "apiKeyId" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "app" TEXT,
    "prompt" TEXT NOT NULL,
    "inputFileId" TEXT,
    "status" TEXT NOT NULL,
    "output" TEXT,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "completedAt" DATETIME,
    CONSTRAINT "Generation_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Generation_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Generation" ("apiKeyId", "app", "attempts", "completedAt", "createdAt", "environment", "error", "id", "inputFileId", "leaseExpiresAt", "leaseOwner", "model", "output", "prompt", "startedAt", "status", "userId", "teamId") SELECT "apiKeyId", "app", "attempts", "completedAt", "createdAt", "environment", "error", "id", "inputFileId", "leaseExpiresAt", "leaseOwner", "model", "output", "prompt", "startedAt", "status", "userId", (SELECT "Team"."id" FROM "Team" WHERE "Team"."personalOfId" = "Generation"."userId") FROM "Generation";
DROP TABLE "Generation";
ALTER TABLE "new_Generation" RENAME TO "Generation";
CREATE INDEX "Generation_status_createdAt_idx" ON "Generation"("status", "createdAt");
CREATE INDEX "Generation_userId_environment_createdAt_idx" ON "Generation"("userId", "environment", "createdAt");
CREATE INDEX "Generation_teamId_environment_createdAt_idx" ON "Generation"("teamId", "environment", "createdAt");
CREATE TABLE "new_StoredFile" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "filename" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "purpose" TEXT,
    "storagePath" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "StoredFile_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "StoredFile_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_StoredFile" ("bytes", "contentType", "createdAt", "environment", "filename", "id", "purpose", "storagePath", "userId", "teamId") SELECT "bytes", "contentType", "createdAt", "environment", "filename", "id", "purpose", "storagePath", "userId", (SELECT "Team"."id" FROM "Team" WHERE "Team"."personalOfId" = "StoredFile"."userId") FROM "StoredFile";
DROP TABLE "StoredFile";
ALTER TABLE "new_StoredFile" RENAME TO "StoredFile";
CREATE INDEX "StoredFile_userId_environment_idx" ON "StoredFile"("userId", "environment");
CREATE INDEX "StoredFile_teamId_environment_idx" ON "StoredFile"("teamId", "environment");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "Team_slug_key" ON "Team"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "Team_personalOfId_key" ON "Team"("personalOfId");

-- CreateIndex
CREATE INDEX "Membership_userId_idx" ON "Membership"("userId");
