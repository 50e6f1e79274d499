import "server-only";
import { databaseTarget, sqliteFile } from "../db-target";
import { getEnv } from "../env";
import { gatePool } from "../gate-pool";
import { log } from "../log";
import { UsageBuffer } from "./buffer";
import { requestsIn, type UsageEvent } from "./event";
import { sqliteUsageWriter } from "./sqlite-usage-writer";
import { postgresUsageWriter } from "./postgres-usage-writer";

// The process's one usage buffer, kept on globalThis (one per instance, also
// across development reloads), flushed by server.mjs before it exits. On
// SQLite its batches are written by a worker thread, off the request thread
// (lib/usage/sqlite-usage-writer.ts); on PostgreSQL, whose driver is
// asynchronous, through the gate's pool without the ORM
// (lib/usage/postgres-usage-writer.ts).

const WARN_EVERY_MS = 10_000;

const globalForUsage = globalThis as unknown as {
  keyportUsage?: UsageBuffer;
  keyportUsageWriter?: UsageWriter;
  keyportBeforeExit?: (() => Promise<void>)[];
};

function dropWarner() {
  let lastWarned = 0;
  return (dropped: number, reason: "full" | "write_failed") => {
    const now = Date.now();
    if (now - lastWarned < WARN_EVERY_MS) return;
    lastWarned = now;
    log.warn("usage.events_dropped", { dropped_total: dropped, reason });
  };
}

export interface UsageWriter {
  /** Writes one batch in one transaction; rejects if nothing of it was written. */
  write(events: UsageEvent[]): Promise<void>;
  /** Stops what the writer runs of its own (the SQLite worker thread). */
  close?(): Promise<void>;
}

/**
 * The writer's `write`, logging a failed batch with the requests it stood for (an event over the log cap stands
 * for many: lib/usage/buffer.ts), which the batch's length alone would understate.
 */
export function loggedWrites(writer: UsageWriter): (events: UsageEvent[]) => Promise<void> {
  return (events) =>
    writer.write(events).catch((error: unknown) => {
      log.error("usage.write_failed", {
        requests: requestsIn(events),
        events: events.length,
        error: String((error as Error)?.message),
      });
      throw error;
    });
}

/** The process's writer for usage batches (one per process, on globalThis like the buffer). */
export function appUsageWriter(): UsageWriter {
  if (!globalForUsage.keyportUsageWriter) {
    const root = process.cwd();
    const target = databaseTarget(getEnv().DATABASE_URL, root);
    globalForUsage.keyportUsageWriter =
      target.provider === "postgres"
        ? postgresUsageWriter(gatePool())
        : sqliteUsageWriter(sqliteFile(target.url, root));
  }
  return globalForUsage.keyportUsageWriter;
}

export function usageBuffer(): UsageBuffer {
  if (!globalForUsage.keyportUsage) {
    const writer = appUsageWriter();
    const buffer = new UsageBuffer({ write: loggedWrites(writer), onDrop: dropWarner() });
    globalForUsage.keyportUsage = buffer;
    (globalForUsage.keyportBeforeExit ??= []).push(async () => {
      await buffer.close();
      await writer.close?.();
      // The benchmark reads this line for its drop count.
      log.info("usage.closed", { ...buffer.snapshot() });
    });
  }
  return globalForUsage.keyportUsage;
}
