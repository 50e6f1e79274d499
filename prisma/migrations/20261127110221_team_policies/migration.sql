-- The team's policies (lib/teams/policies.ts). Columns added in place: the
-- defaults are what every team had before there were policies.
ALTER TABLE "Team" ADD COLUMN "productionKeys" TEXT NOT NULL DEFAULT 'developers';
ALTER TABLE "Team" ADD COLUMN "maxKeyDaysProd" INTEGER;
ALTER TABLE "Team" ADD COLUMN "maxKeyDaysDev" INTEGER;
