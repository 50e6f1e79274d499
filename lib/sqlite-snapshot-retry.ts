import "server-only";
import type { Db } from "./database-client";

// SQLite in WAL mode: a transaction that read before it writes fails at its
// first write with SQLITE_BUSY_SNAPSHOT when another connection committed in
// between. Its snapshot is stale, so waiting cannot help and SQLite's busy
// timeout does not apply; run again from the start, it reads the new one.
// Prisma's interactive transactions begin deferred (the adapter sends BEGIN),
// so any of them that reads first can meet it while the usage worker, the
// server or another process writes: the operator CLI met it under a benchmark's
// load. The app's transactions change only the database, so running one again
// is safe; one that failed this way wrote nothing.

const ATTEMPTS = 10;

/** SQLITE_BUSY_SNAPSHOT, as Prisma reports it (P1008, with the driver's code in its meta). */
export function isStaleSnapshot(error: unknown): boolean {
  const meta = (error as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } })?.meta;
  return meta?.driverAdapterError?.cause?.originalCode === "SQLITE_BUSY_SNAPSHOT";
}

/** The client, whose interactive transactions ($transaction with a function) run again on a stale snapshot. */
export function retryingStaleSnapshots(client: Db): Db {
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property !== "$transaction") return value.bind(target);
      return async (first: unknown, ...rest: unknown[]) => {
        // A batch ($transaction([...])) is made of promises that ran once: only a function can run again.
        if (typeof first !== "function") return value.call(target, first, ...rest);
        for (let attempt = 1; ; attempt++) {
          try {
            return await value.call(target, first, ...rest);
          } catch (error) {
            if (attempt >= ATTEMPTS || !isStaleSnapshot(error)) throw error;
          }
        }
      };
    },
  });
}
