import "server-only";
import { db } from "../db";
import { databaseTarget, sqliteFile } from "../db-target";
import { getEnv } from "../env";
import { log } from "../log";
import { UsageBuffer } from "./buffer";
import type { UsageEvent } from "./event";
import { sqliteUsageWriter } from "./sqlite-usage-writer";
import { writeUsageBatch } from "./write-batch";

// The process's one usage buffer, kept on globalThis (one per instance, also
// across development reloads), flushed by server.mjs before it exits. On
// SQLite its batches are written by a worker thread, off the request thread
// (lib/usage/sqlite-usage-writer.ts); on PostgreSQL the driver is
// asynchronous already and Prisma writes them.

const WARN_EVERY_MS = 10_000;

const globalForUsage = globalThis as unknown as {
  keyportUsage?: UsageBuffer;
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

function batchWriter(): (events: UsageEvent[]) => Promise<void> {
  const root = process.cwd();
  const target = databaseTarget(getEnv().DATABASE_URL, root);
  if (target.provider === "postgres") return (events) => writeUsageBatch(db, events);
  const writer = sqliteUsageWriter(sqliteFile(target.url, root));
  return (events) => writer.write(events);
}

export function usageBuffer(): UsageBuffer {
  if (!globalForUsage.keyportUsage) {
    const write = batchWriter();
    const buffer = new UsageBuffer({
      write: (events) =>
        write(events).catch((error: unknown) => {
          log.error("usage.write_failed", { events: events.length, error: String((error as Error)?.message) });
          throw error;
        }),
      onDrop: dropWarner(),
    });
    globalForUsage.keyportUsage = buffer;
    (globalForUsage.keyportBeforeExit ??= []).push(async () => {
      await buffer.close();
      // The benchmark reads this line for its drop count.
      log.info("usage.closed", { ...buffer.snapshot() });
    });
  }
  return globalForUsage.keyportUsage;
}
