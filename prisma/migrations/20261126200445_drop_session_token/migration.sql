-- Sessions, step 2 of 2: run once no instance of the previous release is left
-- (docs/operations.md): `npm run db:deploy` holds it back in the run that
-- applies session_token_hash, and applies it in the next run, after hashing
-- what the old instances made meanwhile. A session still without its hash is
-- one nobody could have used since: it ends here. The tokens in clear are
-- emptied before the column goes, with secure_delete on, so SQLite overwrites
-- them in the file instead of leaving them in its free pages.
DELETE FROM "Session" WHERE "tokenHash" IS NULL;
PRAGMA secure_delete = ON;
UPDATE "Session" SET "sessionToken" = NULL WHERE "sessionToken" IS NOT NULL;
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tokenHash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expires" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "verifiedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ip" TEXT,
    "userAgent" TEXT,
    "stepUpFailures" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Session" ("createdAt", "expires", "id", "ip", "lastSeenAt", "stepUpFailures", "tokenHash", "userAgent", "userId", "verifiedAt") SELECT "createdAt", "expires", "id", "ip", "lastSeenAt", "stepUpFailures", "tokenHash", "userAgent", "userId", "verifiedAt" FROM "Session";
DROP TABLE "Session";
ALTER TABLE "new_Session" RENAME TO "Session";
CREATE UNIQUE INDEX "Session_tokenHash_key" ON "Session"("tokenHash");
CREATE INDEX "Session_userId_idx" ON "Session"("userId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
