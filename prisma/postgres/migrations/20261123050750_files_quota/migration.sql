-- AlterTable
ALTER TABLE "User" ADD COLUMN     "filesChangedAt" TIMESTAMP(3);
