-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "requireTwoFactor" BOOLEAN NOT NULL DEFAULT false;
