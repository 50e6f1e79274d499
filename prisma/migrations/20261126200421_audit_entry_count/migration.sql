-- AlterTable (a plain ADD COLUMN: SQLite allows it with a constant default, so
-- the activity log, often the largest table, is not copied)
ALTER TABLE "AuditEvent" ADD COLUMN "count" INTEGER NOT NULL DEFAULT 1;
