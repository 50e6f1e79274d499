-- AlterTable
ALTER TABLE "User" ADD COLUMN "filesChangedAt" DATETIME;
