// Whether an error means the database could not take the query in time (its
// pool full past DATABASE_TIMEOUT_MS, a connection too slow to open, SQLite's
// write lock held past its busy timeout), as opposed to a query that failed.
// Such a request is answered 503 "try again" rather than 500: the public API
// says so with Retry-After (lib/public-api/gate.ts), the app with a page
// (lib/http/busy-page.ts). Plain TypeScript with no imports: the gate's
// bundle and Next's both use it.

/** What a client is told to wait before it tries again, in seconds. */
export const DATABASE_BUSY_RETRY_AFTER_SECONDS = 5;

// pg-pool's own messages (node_modules/pg-pool/index.js): its queue waited past
// connectionTimeoutMillis, or a new connection took longer than that to open.
// Prisma hands both on as they are, inside a transaction's start too.
const POOL_TIMEOUTS = ["timeout exceeded when trying to connect", "Connection terminated due to connection timeout"];

// Prisma's codes for the same: an operation or a transaction's start that
// timed out waiting (SQLite's busy timeout arrives as P1008 through the
// driver adapter's "SocketTimeout").
const PRISMA_WAIT_CODES = new Set(["P1008", "P2024"]);
const PRISMA_TRANSACTION_WAIT = "Unable to start a transaction in the given time";

// PostgreSQL's "too many clients" (53300) and SQLite's SQLITE_BUSY, as the drivers name them.
const DRIVER_BUSY_KINDS = new Set(["TooManyConnections", "SocketTimeout"]);

interface ErrorLike {
  message?: unknown;
  code?: unknown;
  kind?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
}

function busyItself(error: ErrorLike): boolean {
  const message = typeof error.message === "string" ? error.message : "";
  if (POOL_TIMEOUTS.some((text) => message.includes(text))) return true;
  if (typeof error.code === "string") {
    if (PRISMA_WAIT_CODES.has(error.code)) return true;
    if (error.code === "P2028" && message.includes(PRISMA_TRANSACTION_WAIT)) return true;
    if (error.code === "53300" || error.code.startsWith("SQLITE_BUSY")) return true;
  }
  return typeof error.kind === "string" && DRIVER_BUSY_KINDS.has(error.kind);
}

/** Whether `error`, or an error it wraps (`cause`, Prisma's driver adapter error), says the database was busy. */
export function isDatabaseBusy(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const next = queue.shift();
    if (typeof next !== "object" || next === null || seen.has(next)) continue;
    seen.add(next);
    const candidate = next as ErrorLike;
    if (busyItself(candidate)) return true;
    queue.push(candidate.cause, candidate.meta?.driverAdapterError);
  }
  return false;
}
