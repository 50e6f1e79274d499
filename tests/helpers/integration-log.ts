// Where the integration tests' output is copied (tests/helpers/capture-logs.ts),
// and the line that opens it, naming the run that wrote it. KEYPORT_INTEGRATION_LOG
// moves it: CI runs the upgrade tests on SQLite beside its PostgreSQL pass, in
// the same checkout, and each command must keep its own.
import path from "node:path";

export const INTEGRATION_LOG =
  process.env.KEYPORT_INTEGRATION_LOG ?? path.join(import.meta.dirname, "..", "..", ".test-logs", "integration.log");

export const runMarker = (run: string) => `keyport integration run ${run}`;
