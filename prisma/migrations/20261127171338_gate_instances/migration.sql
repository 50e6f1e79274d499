-- CreateTable
CREATE TABLE "GateInstance" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "host" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "GateInstance_heartbeatAt_idx" ON "GateInstance"("heartbeatAt");
