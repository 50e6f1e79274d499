import "server-only";
import pg from "pg";
import { databaseTarget } from "./db-target";

// The public API's own PostgreSQL connections, beside the ORM's pool: the
// gate's two reads and its counter upsert are single statements, prepared
// once per connection (named queries), at about a quarter of their cost
// through the ORM; the usage flush writes its batches here too. One pool per
// process, which the runtime makes on first use (lib/runtime/create-runtime.ts).

const GATE_POOL_SIZE = 10;
const CONNECT_TIMEOUT_MS = 3_000;

export function createGatePool(databaseUrl: string): pg.Pool {
  const target = databaseTarget(databaseUrl, process.cwd());
  if (target.provider !== "postgres") throw new Error("The gate's pool is for PostgreSQL only.");
  const pool = new pg.Pool({
    connectionString: target.url,
    max: GATE_POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
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
