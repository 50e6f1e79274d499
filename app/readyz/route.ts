import path from "node:path";
import { databaseTarget } from "@/lib/db-target";
import { getEnv } from "@/lib/env";
import { readiness } from "@/lib/health";
import { runtime } from "@/lib/runtime/runtime";

// Internal and unauthenticated, like /healthz: load balancers call it, and an API key in a credential header is
// refused by proxy.ts as on every path off the public API. Not rate limited. docs/operations.md says how to use both.
export const dynamic = "force-dynamic";

// GET /readyz: whether this instance can serve (lib/health.ts readiness); /healthz stays the liveness check.
export function GET() {
  const env = getEnv();
  const current = runtime();
  // Read at run time, not traced by the build (turbopackIgnore): a path from process.cwd() would ship the project.
  const root = path.resolve(/* turbopackIgnore: true */ process.cwd());
  const store = current.rateLimits;
  return readiness({
    db: current.db,
    migrationsDir: databaseTarget(env.DATABASE_URL, root).migrationsPath,
    redis: env.REDIS_URL && store.ping ? { ping: () => store.ping!() } : null,
    redisMayFail: env.RATE_LIMIT_FAIL_OPEN === "1",
    closing: current.closing,
  });
}
