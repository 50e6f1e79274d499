import "server-only";
import pg from "pg";
import { PG_IDLE_TIMEOUT_MS } from "./database-client";
import { databaseTarget } from "./db-target";

// The public API's own PostgreSQL connections, beside the ORM's pool: the
// gate's two reads and its counter upsert are single statements, prepared
// once per connection (named queries), at about a quarter of their cost
// through the ORM; the usage flush writes its batches here too. One pool per
// process, which the runtime makes on first use (lib/runtime/create-runtime.ts).

/** Its size and wait: DATABASE_POOL_SIZE and DATABASE_TIMEOUT_MS, as for the ORM's pool (docs/operations.md). */
export interface GatePoolSettings {
  poolSize: number;
  timeoutMs: number;
}

export function createGatePool(databaseUrl: string, settings: GatePoolSettings): pg.Pool {
  const target = databaseTarget(databaseUrl, process.cwd());
  if (target.provider !== "postgres") throw new Error("The gate's pool is for PostgreSQL only.");
  const pool = new pg.Pool({
    connectionString: target.url,
    max: settings.poolSize,
    // Both the wait for a free connection and the opening of a new one; past it the gate answers 503 with Retry-After.
    connectionTimeoutMillis: settings.timeoutMs,
    idleTimeoutMillis: PG_IDLE_TIMEOUT_MS,
    // This pool's only writes are the rate-limit counters and the usage batches: their commits need not wait
    // for the WAL to reach the disk. If PostgreSQL itself crashes, the last fraction of a second of counts may
    // be lost (a client could then exceed a limit once, by that much), and of usage rows, which a stopped
    // instance's buffer loses anyway; nothing else is written through this pool.
    options: "-c synchronous_commit=off",
  });
  // An idle connection that drops is replaced on the next query; unheard, its error would end the process.
  pool.on("error", () => {});
  return pool;
}
