-- CreateTable
CREATE TABLE "RateLimitCounter" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "windowEndsAt" DATETIME NOT NULL,
    "count" INTEGER NOT NULL
);

-- CreateIndex
CREATE INDEX "RateLimitCounter_windowEndsAt_idx" ON "RateLimitCounter"("windowEndsAt");
