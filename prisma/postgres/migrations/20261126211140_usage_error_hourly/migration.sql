-- Error answers per key, error code and hour, counted with the hourly counts (after_revocation in key:usage).
-- CreateTable
CREATE TABLE "UsageErrorHourly" (
    "keyId" TEXT NOT NULL,
    "hour" INTEGER NOT NULL,
    "errorCode" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "UsageErrorHourly_pkey" PRIMARY KEY ("keyId","hour","errorCode")
);

-- CreateIndex
CREATE INDEX "UsageErrorHourly_hour_idx" ON "UsageErrorHourly"("hour");
