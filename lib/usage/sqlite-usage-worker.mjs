// The usage flush on SQLite, in a worker thread of its own (lib/usage/sqlite-usage-writer.ts
// starts it). better-sqlite3 is synchronous: on the request thread, writing a
// batch of 500 events stalled every request waiting behind it for
// milliseconds, which was the gate's p99 at half load. Here the thread that
// waits is this one; WAL mode lets the gate's reads go on meanwhile.
//
// Plain JavaScript, loaded by path: it runs as it is under the gate's bundle,
// Next and the tests. It writes what lib/usage/postgres-usage-writer.ts writes on
// PostgreSQL, in the text form Prisma's SQLite adapter stores dates in, and
// the integration tests read every row back through Prisma to prove it.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

// No busy wait inside SQLite (timeout 0): while another connection holds the
// write lock, a batch is tried again from this thread's event loop (below).
// A thread blocked inside a native call cannot be stopped cleanly: ending the
// process then aborted it (better-sqlite3 throwing into a dying isolate).
const connection = new Database(workerData.file, { fileMustExist: true, timeout: 0 });
// Short: another process writing in a loop (a checkpoint loop, say) frees the
// lock only for moments, and a try costs microseconds. Every 20 ms, a batch
// waited seconds behind two such processes.
const RETRY_MS = 2;

/** Prisma's SQLite adapter stores DateTime as ISO 8601 text with an explicit offset. */
const stored = (date) => date.toISOString().replace("Z", "+00:00");

const insertEvent = connection.prepare(`INSERT INTO "UsageEvent"
  ("requestId", "keyId", "userId", "route", "status", "errorCode", "latencyMs", "ip", "userAgent", "createdAt")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
const addHourly =
  connection.prepare(`INSERT INTO "UsageHourly" ("keyId", "hour", "route", "statusClass", "userId", "count")
  VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT ("keyId", "hour", "route", "statusClass")
  DO UPDATE SET "count" = "UsageHourly"."count" + excluded."count"`);
const addErrors = connection.prepare(`INSERT INTO "UsageErrorHourly" ("keyId", "hour", "errorCode", "userId", "count")
  VALUES (?, ?, ?, ?, ?)
  ON CONFLICT ("keyId", "hour", "errorCode")
  DO UPDATE SET "count" = "UsageErrorHourly"."count" + excluded."count"`);
// Only a row still older than a minute moves, so instances that used the same key meanwhile do not all write it.
const touchKey = connection.prepare(`UPDATE "ApiKey" SET "lastUsedAt" = ?, "lastUsedIp" = ?
  WHERE "id" = ? AND ("lastUsedAt" IS NULL OR "lastUsedAt" < ?)`);

/** One batch, in one transaction: all of it or none. */
const writeBatch = connection.transaction(({ hourly, errors, events, touches }) => {
  for (const c of hourly) addHourly.run(c.keyId, c.hour, c.route, c.statusClass, c.userId, c.count);
  for (const c of errors) addErrors.run(c.keyId, c.hour, c.errorCode, c.userId, c.count);
  for (const e of events) {
    insertEvent.run(
      e.requestId,
      e.keyId,
      e.userId,
      e.route,
      e.status,
      e.errorCode,
      e.latencyMs,
      e.ip,
      e.userAgent,
      stored(e.createdAt),
    );
  }
  for (const t of touches) touchKey.run(stored(t.at), t.ip, t.keyId, stored(t.staleBefore));
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes a batch, trying again for as long as another connection holds the
 * lock: a batch given up after a deadline was usage lost while the database
 * worked (another process in a checkpoint loop held it for seconds at a
 * time). The buffer behind this thread stays bounded meanwhile (it drops what
 * does not fit, counted), and a shutdown stops the thread between tries.
 * BEGIN IMMEDIATE takes the write lock before anything is read, so a batch
 * never meets SQLITE_BUSY_SNAPSHOT halfway.
 */
async function write(batch) {
  for (;;) {
    try {
      return writeBatch.immediate(batch);
    } catch (error) {
      if (!String(error?.code).startsWith("SQLITE_BUSY")) throw error;
      await sleep(RETRY_MS);
    }
  }
}

// One batch at a time, in the order they came.
let queue = Promise.resolve();
parentPort.on("message", ({ id, batch }) => {
  queue = queue.then(async () => {
    try {
      await write(batch);
      parentPort.postMessage({ id, ok: true });
    } catch (error) {
      // The message only: the caller logs it, and no row content is in it.
      parentPort.postMessage({ id, ok: false, error: String(error?.message ?? error) });
    }
  });
});
