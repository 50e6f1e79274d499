-- A column with a constant default: added in place (a rebuild of Team would
-- copy every row and touch every table that refers to it).
ALTER TABLE "Team" ADD COLUMN "requireTwoFactor" BOOLEAN NOT NULL DEFAULT false;
