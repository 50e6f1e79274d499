-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "rateLimitByOperator" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "IdempotencyRecord" ADD COLUMN     "response" TEXT;
