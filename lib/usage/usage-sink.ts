import "server-only";
import type pg from "pg";
import { databaseTarget, sqliteFile } from "../db-target";
import { log } from "../log";
import { withFields } from "../with-fields";
import { UsageBuffer } from "./buffer";
import { requestsIn, type UsageEvent } from "./event";
import { sqliteUsageWriter } from "./sqlite-usage-writer";
import { postgresUsageWriter } from "./postgres-usage-writer";

// The process's one usage buffer, which the runtime holds
// (lib/runtime/create-runtime.ts) and flushes when server.mjs stops it. On
// SQLite its batches are written by a worker thread, off the request thread
// (lib/usage/sqlite-usage-writer.ts); on PostgreSQL, whose driver is
// asynchronous, through the gate's pool without the ORM
// (lib/usage/postgres-usage-writer.ts).

const WARN_EVERY_MS = 10_000;

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

/** Under server.mjs's five seconds of grace on SIGTERM, so that the line below is always written. */
const CLOSE_DEADLINE_MS = 4_500;

/**
 * On shutdown: writes what the buffer holds and stops the writer, then logs
 * `usage.closed` with the totals (the benchmark reads its drop count). A
 * write that cannot finish in time (on SQLite the worker waits for as long as
 * another process holds the write lock) does not hold the line back: it is
 * logged as a warning, `cut_off`, whose `pending` is the requests that were
 * not written.
 */
export async function closeUsage(
  buffer: UsageBuffer,
  writer: UsageWriter,
  { deadlineMs = CLOSE_DEADLINE_MS } = {},
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const closed = (async () => {
    await buffer.close();
    await writer.close?.();
    return false;
  })().catch(() => false); // a writer that fails to stop: the totals below are still right
  const deadline = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), deadlineMs);
    timer.unref?.();
  });
  const cutOff = await Promise.race([closed, deadline]);
  clearTimeout(timer);
  if (cutOff) log.warn("usage.closed", withFields(buffer.snapshot(), { cut_off: true }));
  else log.info("usage.closed", { ...buffer.snapshot() });
}

/** The writer for usage batches on DATABASE_URL's database: the SQLite worker thread, or the gate's pool. */
export function createUsageWriter(databaseUrl: string, gatePool: () => pg.Pool): UsageWriter {
  const root = process.cwd();
  const target = databaseTarget(databaseUrl, root);
  return target.provider === "postgres"
    ? postgresUsageWriter(gatePool())
    : sqliteUsageWriter(sqliteFile(target.url, root));
}

/** A buffer that writes through `writer`, logging failed batches and (at most every 10 s) dropped events. */
export function createUsageBuffer(writer: UsageWriter): UsageBuffer {
  return new UsageBuffer({ write: loggedWrites(writer), onDrop: dropWarner() });
}
