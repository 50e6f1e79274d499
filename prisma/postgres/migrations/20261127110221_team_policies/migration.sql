-- The team policies (lib/teams/policies.ts), each defaulting to what every team had before there were policies
-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "maxKeyDaysDev" INTEGER,
ADD COLUMN     "maxKeyDaysProd" INTEGER,
ADD COLUMN     "productionKeys" TEXT NOT NULL DEFAULT 'developers';
