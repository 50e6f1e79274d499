-- CreateTable
CREATE TABLE "EndedSession" (
    "tokenDigest" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "endedAt" DATETIME NOT NULL,
    "endedFromIp" TEXT,
    "endedFromUa" TEXT,
    "expiresAt" DATETIME NOT NULL,
    CONSTRAINT "EndedSession_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "EndedSession_userId_idx" ON "EndedSession"("userId");

-- CreateIndex
CREATE INDEX "EndedSession_expiresAt_idx" ON "EndedSession"("expiresAt");
