-- Sessions, step 2 of 2: run once no instance of the previous release is left
-- (docs/operations.md): `npm run db:deploy` holds it back in the run that
-- applies session_token_hash, and applies it in the next run, after hashing
-- what the old instances made meanwhile. A session still without its hash is
-- one nobody could have used since: it ends here. The tokens in clear are
-- emptied before the column goes. PostgreSQL keeps the old row versions until
-- a VACUUM, which docs/operations.md says to run after this.
DELETE FROM "Session" WHERE "tokenHash" IS NULL;
UPDATE "Session" SET "sessionToken" = NULL WHERE "sessionToken" IS NOT NULL;

-- DropIndex
DROP INDEX "Session_sessionToken_key";

-- AlterTable
ALTER TABLE "Session" DROP COLUMN "sessionToken",
ALTER COLUMN "tokenHash" SET NOT NULL;
