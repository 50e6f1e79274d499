-- The activity chain of each team (lib/audit.ts recordTeamAudit): its rows,
-- and its head on the Team row. Every chain starts empty here. The first row
-- of a personal team, which commits to the head of its account chain, is
-- written by admin audit:start-team-chains in npm run db:deploy, since it
-- takes the chain key, which SQL has not. (No quotes in these comments: the
-- PostgreSQL adapter reads them as strings.)
-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "auditHash" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "auditSeal" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "auditSeq" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "TeamAuditEvent" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "keyId" TEXT,
    "actorKind" TEXT NOT NULL,
    "actorId" TEXT,
    "ip" TEXT,
    "userAgent" TEXT,
    "details" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "hash" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "TeamAuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TeamAuditEvent_teamId_createdAt_idx" ON "TeamAuditEvent"("teamId", "createdAt");

-- CreateIndex
CREATE INDEX "TeamAuditEvent_teamId_keyId_createdAt_idx" ON "TeamAuditEvent"("teamId", "keyId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "TeamAuditEvent_teamId_seq_key" ON "TeamAuditEvent"("teamId", "seq");

-- AddForeignKey
ALTER TABLE "TeamAuditEvent" ADD CONSTRAINT "TeamAuditEvent_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
