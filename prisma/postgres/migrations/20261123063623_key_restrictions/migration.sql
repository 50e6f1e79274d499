-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "allowedIps" TEXT,
ADD COLUMN     "rateLimit" INTEGER,
ADD COLUMN     "scopes" TEXT NOT NULL DEFAULT 'all';
