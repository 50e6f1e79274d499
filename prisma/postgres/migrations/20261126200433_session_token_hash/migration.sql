-- Sessions, step 1 of 2: a column for the SHA-256 of each session's token
-- (lib/auth/session-store.ts). SQLite has no SHA-256 in SQL, so `npm run
-- db:deploy` fills it in JavaScript right after this migration (admin
-- sessions:hash-tokens). The token in clear stays, now optional, for the
-- instances of the previous release still running during a rolling deploy.
-- Step 2 (drop_session_token) removes it once none is left (docs/operations.md).
-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "tokenHash" TEXT,
ALTER COLUMN "sessionToken" DROP NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "Session_tokenHash_key" ON "Session"("tokenHash");
