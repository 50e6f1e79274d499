-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "prodDefaultAllowedIps" TEXT,
ADD COLUMN     "prodDefaultScopes" TEXT NOT NULL DEFAULT 'all';
