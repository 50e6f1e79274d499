// Imported by instrumentation.ts in the Node.js runtime only.
import { EnvError, parseEnv } from "./env-schema";

export function checkEnvironmentOrExit(): void {
  try {
    parseEnv(process.env);
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(`keyport: ${error.message}`);
    process.exit(1);
  }
}
