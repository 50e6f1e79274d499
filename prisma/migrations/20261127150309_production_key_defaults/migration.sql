-- Defaults for new production keys (lib/teams/policies.ts), added in place:
-- every scope and any address, as before there were defaults.
ALTER TABLE "Team" ADD COLUMN "prodDefaultScopes" TEXT NOT NULL DEFAULT 'all';
ALTER TABLE "Team" ADD COLUMN "prodDefaultAllowedIps" TEXT;
