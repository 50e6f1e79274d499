-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "decoy" BOOLEAN NOT NULL DEFAULT false;
