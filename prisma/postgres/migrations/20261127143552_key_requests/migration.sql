-- CreateTable
CREATE TABLE "KeyRequest" (
    "id" TEXT NOT NULL,
    "publicId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3),
    "scopes" TEXT NOT NULL DEFAULT 'all',
    "allowedIps" TEXT,
    "rateLimit" INTEGER,
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedById" TEXT,
    "decidedAt" TIMESTAMP(3),
    "comment" TEXT,
    "revealedAt" TIMESTAMP(3),
    "keyPublicId" TEXT,

    CONSTRAINT "KeyRequest_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "KeyRequest_publicId_key" ON "KeyRequest"("publicId");

-- CreateIndex
CREATE INDEX "KeyRequest_teamId_status_createdAt_idx" ON "KeyRequest"("teamId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "KeyRequest_userId_createdAt_idx" ON "KeyRequest"("userId", "createdAt");

-- AddForeignKey
ALTER TABLE "KeyRequest" ADD CONSTRAINT "KeyRequest_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KeyRequest" ADD CONSTRAINT "KeyRequest_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
