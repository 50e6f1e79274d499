-- AlterTable
ALTER TABLE "AuditEvent" ADD COLUMN     "count" INTEGER NOT NULL DEFAULT 1;
