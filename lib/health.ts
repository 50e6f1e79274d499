import "server-only";
import { readdir } from "node:fs/promises";
import type { Db } from "./database-client";
import { CONTRACT_MIGRATIONS } from "./db-contracts";
import { log } from "./log";

/**
 * GET /healthz's answer, liveness: 200 while the process serves requests. It asks nothing of the database on
 * purpose: a database outage would otherwise fail every instance's liveness at once, and an orchestrator restarts
 * them all, which mends nothing. Whether the instance can serve is readiness (below).
 */
export function liveness(): Response {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}

/** How long readiness waits for the database or Redis: well under the pools' connect timeouts (3 s and more). */
export const READY_CHECK_TIMEOUT_MS = 1_000;

/** What readiness looks at, given by the route from the runtime (and by tests, with parts that fail). */
export interface ReadinessProbe {
  db: Pick<Db, "$queryRawUnsafe">;
  /** The provider's migrations folder (prisma/migrations or prisma/postgres/migrations). */
  migrationsDir: string;
  /** The rate-limit counters' own store, when it is not the database (Redis); null otherwise. */
  redis: { ping(): Promise<void> } | null;
  /** RATE_LIMIT_FAIL_OPEN=1: the gate runs on without Redis, so its absence is said but does not fail readiness. */
  redisMayFail: boolean;
  /** The instance is shutting down (server.mjs on SIGTERM). */
  closing: boolean;
}

/** The work's answer, or a rejection once `ms` have passed. */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The migrations in the folder the database has not applied, but a contract held back until the next deploy. */
async function missingMigrations(probe: ReadinessProbe): Promise<string[]> {
  const rows = await within(
    probe.db.$queryRawUnsafe<{ migration_name: string }[]>(
      'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    ),
    READY_CHECK_TIMEOUT_MS,
  );
  const applied = new Set(rows.map((row) => row.migration_name));
  const heldBack = new Set<string>(CONTRACT_MIGRATIONS.map((pair) => pair.contract));
  const local = (await readdir(probe.migrationsDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  return local.filter((name) => !applied.has(name) && !heldBack.has(name)).sort();
}

/**
 * GET /readyz's answer, for a load balancer: 200 when this instance can serve — the database answers within a second,
 * every migration is applied (a contract held back for the next deploy aside), Redis answers where it keeps the
 * counters, and the instance is not shutting down — else 503 saying which. Redis unreachable under
 * RATE_LIMIT_FAIL_OPEN=1 is said but stays 200: the gate runs on without it, and a Redis outage must not take every
 * instance out of the balancer at once. Reasons that could name hosts or users go to the log only; no stack trace.
 */
export async function readiness(probe: ReadinessProbe): Promise<Response> {
  const checks: Record<string, string> = {};
  const problems: string[] = [];
  checks.instance = probe.closing ? "shutting down" : "ok";
  if (probe.closing) problems.push("This instance is shutting down.");
  try {
    await within(probe.db.$queryRawUnsafe("SELECT 1"), READY_CHECK_TIMEOUT_MS);
    checks.database = "ok";
  } catch (error) {
    log.error("readyz.database_unreachable", { error: String((error as Error)?.message) });
    checks.database = "unreachable";
    problems.push("The database does not answer.");
  }
  if (checks.database === "ok") {
    try {
      const missing = await missingMigrations(probe);
      checks.migrations = missing.length === 0 ? "ok" : `${missing.length} not applied`;
      if (missing.length > 0) problems.push(`Migrations not applied: ${missing.join(", ")}. Run npm run db:deploy.`);
    } catch (error) {
      log.error("readyz.migrations_unknown", { error: String((error as Error)?.message) });
      checks.migrations = "unknown";
      problems.push("The applied migrations could not be read.");
    }
  } else {
    checks.migrations = "unknown";
  }
  if (probe.redis) {
    try {
      await within(probe.redis.ping(), READY_CHECK_TIMEOUT_MS);
      checks.redis = "ok";
    } catch (error) {
      log.warn("readyz.redis_unreachable", { error: String((error as Error)?.message), fail_open: probe.redisMayFail });
      // The same word either way: whether the gate now runs on without counting (RATE_LIMIT_FAIL_OPEN) is the
      // operator's to know (the log line, the metrics), not every anonymous caller's (an attack review).
      checks.redis = "unreachable";
      if (!probe.redisMayFail) problems.push("Redis does not answer.");
    }
  } else {
    checks.redis = "not used";
  }
  const headers = { "Cache-Control": "no-store" };
  if (problems.length === 0) return Response.json({ status: "ready", checks }, { headers });
  return Response.json(
    { status: "unready", checks, error: { code: "service_unavailable", message: problems.join(" ") } },
    { status: 503, headers },
  );
}
