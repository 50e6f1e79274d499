-- A team's own activity chain (lib/audit.ts recordTeamAudit): its rows, and
-- its head on the team row. Every chain starts empty here; a personal team's
-- first row, which commits to its account chain's head, is written by
-- `admin audit:start-team-chains` in npm run db:deploy (it takes the chain's
-- key, which SQL has not), or by the app before the team's first change.
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
