-- AlterTable
ALTER TABLE "AuthAttempt" ADD COLUMN "device" TEXT;
