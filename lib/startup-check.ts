// Imported by instrumentation.ts in the Node.js runtime only.
import { EnvError, parseEnv } from "./env-schema";

export function checkEnvironmentOrExit(): void {
  try {
    const env = parseEnv(process.env);
    if (env.KEYPORT_BENCH_UNGATED === "1") {
      console.warn(
        "keyport: !!! KEYPORT_BENCH_UNGATED=1: requests with x-keyport-bench: ungated SKIP AUTHENTICATION. Benchmarks only: never deploy this. !!!",
      );
    }
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(`keyport: ${error.message}`);
    process.exit(1);
  }
}
