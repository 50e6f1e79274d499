-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "stepUpFailures" INTEGER NOT NULL DEFAULT 0;
