-- CreateTable
CREATE TABLE "EndedSession" (
    "tokenDigest" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "endedAt" TIMESTAMP(3) NOT NULL,
    "endedFromIp" TEXT,
    "endedFromUa" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "EndedSession_pkey" PRIMARY KEY ("tokenDigest")
);

-- CreateIndex
CREATE INDEX "EndedSession_userId_idx" ON "EndedSession"("userId");

-- CreateIndex
CREATE INDEX "EndedSession_expiresAt_idx" ON "EndedSession"("expiresAt");

-- AddForeignKey
ALTER TABLE "EndedSession" ADD CONSTRAINT "EndedSession_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
