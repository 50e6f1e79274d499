-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "leakSeenAt" TIMESTAMP(3),
ADD COLUMN     "leakSource" TEXT,
ADD COLUMN     "leakUrl" TEXT;
