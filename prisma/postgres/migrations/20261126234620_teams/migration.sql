-- Teams (lib/teams/): a team owns keys, files and generations. Every
-- existing account gets its personal team, named "Personal", with a slug that
-- never changes ("personal-" and 12 random hex digits: never derived from an
-- email), the account as its owner. Its keys, files and generations move
-- into it. (No semicolon may appear in a comment here: Prisma's PostgreSQL
-- adapter splits a migration at every one.) Filling ApiKey."teamId" raises each key's version (its trigger counts
-- every column), so no instance's cache keeps a key without its team.

-- CreateTable
CREATE TABLE "Team" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "personalOfId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "keysChangedAt" TIMESTAMP(3),
    "filesChangedAt" TIMESTAMP(3),

    CONSTRAINT "Team_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Membership" (
    "teamId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Membership_pkey" PRIMARY KEY ("teamId","userId")
);

-- Personal teams for the accounts made before teams.
INSERT INTO "Team" ("id", "slug", "name", "personalOfId", "createdAt", "keysChangedAt", "filesChangedAt")
SELECT 'team_' || substr(md5(random()::text || "id"), 1, 24),
       'personal-' || substr(md5(random()::text || clock_timestamp()::text || "id"), 1, 12),
       'Personal', "id", "createdAt", "keysChangedAt", "filesChangedAt"
FROM "User";
INSERT INTO "Membership" ("teamId", "userId", "role", "createdAt")
SELECT "id", "personalOfId", 'owner', "createdAt" FROM "Team" WHERE "personalOfId" IS NOT NULL;

-- AlterTable: filled from each row's account's personal team, then required.
ALTER TABLE "ApiKey" ADD COLUMN "teamId" TEXT;
UPDATE "ApiKey" SET "teamId" = (SELECT "Team"."id" FROM "Team" WHERE "Team"."personalOfId" = "ApiKey"."userId");
ALTER TABLE "ApiKey" ALTER COLUMN "teamId" SET NOT NULL;

ALTER TABLE "Generation" ADD COLUMN "teamId" TEXT;
UPDATE "Generation" SET "teamId" = (SELECT "Team"."id" FROM "Team" WHERE "Team"."personalOfId" = "Generation"."userId");
ALTER TABLE "Generation" ALTER COLUMN "teamId" SET NOT NULL;

ALTER TABLE "StoredFile" ADD COLUMN "teamId" TEXT;
UPDATE "StoredFile" SET "teamId" = (SELECT "Team"."id" FROM "Team" WHERE "Team"."personalOfId" = "StoredFile"."userId");
ALTER TABLE "StoredFile" ALTER COLUMN "teamId" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "Team_slug_key" ON "Team"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "Team_personalOfId_key" ON "Team"("personalOfId");

-- CreateIndex
CREATE INDEX "Membership_userId_idx" ON "Membership"("userId");

-- CreateIndex
CREATE INDEX "ApiKey_teamId_createdAt_idx" ON "ApiKey"("teamId", "createdAt");

-- CreateIndex
CREATE INDEX "Generation_teamId_environment_createdAt_idx" ON "Generation"("teamId", "environment", "createdAt");

-- CreateIndex
CREATE INDEX "StoredFile_teamId_environment_idx" ON "StoredFile"("teamId", "environment");

-- AddForeignKey
ALTER TABLE "Team" ADD CONSTRAINT "Team_personalOfId_fkey" FOREIGN KEY ("personalOfId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Membership" ADD CONSTRAINT "Membership_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Membership" ADD CONSTRAINT "Membership_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StoredFile" ADD CONSTRAINT "StoredFile_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Generation" ADD CONSTRAINT "Generation_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
