-- AlterTable
ALTER TABLE "AuditEvent" ADD COLUMN     "hash" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "seq" INTEGER;

-- Existing rows are numbered per user in the order they were written, and their
-- hashes are chained by the release's backfill (npm run db:deploy), the same
-- code as on SQLite, which has no SHA-256 in SQL.
UPDATE "AuditEvent" AS a SET "seq" = n."rn"
FROM (SELECT "id", ROW_NUMBER() OVER (PARTITION BY "userId" ORDER BY "createdAt", "id") AS "rn" FROM "AuditEvent") AS n
WHERE a."id" = n."id";
ALTER TABLE "AuditEvent" ALTER COLUMN "seq" SET NOT NULL;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "auditHash" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "auditSeq" INTEGER NOT NULL DEFAULT 0;

UPDATE "User" AS u SET "auditSeq" = c."n"
FROM (SELECT "userId", COUNT(*) AS "n" FROM "AuditEvent" GROUP BY "userId") AS c
WHERE u."id" = c."userId";

-- CreateIndex
CREATE UNIQUE INDEX "AuditEvent_userId_seq_key" ON "AuditEvent"("userId", "seq");
