// Pairs of migrations that only work apart: `contract` waits for the deploy after `expand` (scripts/db-deploy.mts
// holds it back until no instance of the release before is left: docs/operations.md). A database that has not
// applied a contract yet is still ready to serve (lib/health.ts readiness).
export const CONTRACT_MIGRATIONS = [
  { expand: "20261126200433_session_token_hash", contract: "20261126200445_drop_session_token" },
] as const;
