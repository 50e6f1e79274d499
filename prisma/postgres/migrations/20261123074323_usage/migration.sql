-- CreateTable
CREATE TABLE "UsageEvent" (
    "requestId" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "errorCode" TEXT,
    "latencyMs" INTEGER NOT NULL,
    "ip" TEXT NOT NULL,
    "userAgent" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UsageEvent_pkey" PRIMARY KEY ("requestId")
);

-- CreateTable
CREATE TABLE "UsageHourly" (
    "keyId" TEXT NOT NULL,
    "hour" INTEGER NOT NULL,
    "route" TEXT NOT NULL,
    "statusClass" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "UsageHourly_pkey" PRIMARY KEY ("keyId","hour","route","statusClass")
);

-- CreateIndex
CREATE INDEX "UsageEvent_keyId_createdAt_idx" ON "UsageEvent"("keyId", "createdAt");

-- CreateIndex
CREATE INDEX "UsageEvent_userId_createdAt_idx" ON "UsageEvent"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "UsageEvent_createdAt_idx" ON "UsageEvent"("createdAt");

-- CreateIndex
CREATE INDEX "UsageHourly_userId_hour_idx" ON "UsageHourly"("userId", "hour");

-- CreateIndex
CREATE INDEX "UsageHourly_hour_idx" ON "UsageHourly"("hour");
