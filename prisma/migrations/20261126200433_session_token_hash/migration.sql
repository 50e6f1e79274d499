-- Sessions, step 1 of 2: a column for the SHA-256 of each session's token
-- (lib/auth/session-store.ts). SQLite has no SHA-256 in SQL, so `npm run
-- db:deploy` fills it in JavaScript right after this migration (admin
-- sessions:hash-tokens). The token in clear stays, now optional, for the
-- instances of the previous release still running during a rolling deploy.
-- Step 2 (drop_session_token) removes it once none is left (docs/operations.md).
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "sessionToken" TEXT,
    "userId" TEXT NOT NULL,
    "expires" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "verifiedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ip" TEXT,
    "userAgent" TEXT,
    "stepUpFailures" INTEGER NOT NULL DEFAULT 0,
    "tokenHash" TEXT,
    CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Session" ("createdAt", "expires", "id", "ip", "lastSeenAt", "sessionToken", "stepUpFailures", "userAgent", "userId", "verifiedAt") SELECT "createdAt", "expires", "id", "ip", "lastSeenAt", "sessionToken", "stepUpFailures", "userAgent", "userId", "verifiedAt" FROM "Session";
DROP TABLE "Session";
ALTER TABLE "new_Session" RENAME TO "Session";
CREATE UNIQUE INDEX "Session_sessionToken_key" ON "Session"("sessionToken");
CREATE UNIQUE INDEX "Session_tokenHash_key" ON "Session"("tokenHash");
CREATE INDEX "Session_userId_idx" ON "Session"("userId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
