// Where the integration tests' output is copied (tests/helpers/capture-logs.ts),
// and the line that opens it, naming the run that wrote it.
import path from "node:path";

export const INTEGRATION_LOG = path.join(import.meta.dirname, "..", "..", ".test-logs", "integration.log");

export const runMarker = (run: string) => `keyport integration run ${run}`;
