// server.mjs runs it (from the public API's bundle) before it creates the runtime:
// a bad or missing variable (a weak AUTH_SECRET in production, say) stops
// start-up with a message naming it, instead of failing on the first request.
import { testModeProblem } from "./auth/test-hashing";
import { EnvError, parseEnv } from "./env-schema";
import { parsePublicKeys } from "./secret-scanning/public-keys";

export function checkEnvironmentOrExit(): void {
  try {
    const env = parseEnv(process.env);
    // Checked here, not in the schema: it reads the file system's temporary folder.
    const testMode = testModeProblem(process.env);
    if (testMode) throw new EnvError(testMode);
    // PORT is server.mjs's, not the schema's: the metrics listener must not take the public port (it would bind
    // first, and the public API's server would then fail to listen).
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT === Number(process.env.PORT ?? 3000)) {
      throw new EnvError("METRICS_PORT must differ from PORT: the metrics never share the public port.");
    }
    // Checked here rather than in the schema, which client code also imports.
    if (env.SECRET_SCANNING_PUBLIC_KEYS !== undefined) {
      try {
        parsePublicKeys(env.SECRET_SCANNING_PUBLIC_KEYS);
      } catch (error) {
        throw new EnvError(`SECRET_SCANNING_PUBLIC_KEYS ${(error as Error).message}`);
      }
    }
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(`keyport: ${error.message}`);
    process.exit(1);
  }
}
