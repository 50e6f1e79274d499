import "server-only";
import { rm } from "node:fs/promises";
import path from "node:path";
import type { Db } from "../db";
import { SESSION_IDLE_TIMEOUT_MS } from "../auth/limits";
import { filesRoot } from "../files/store";
import { IDEMPOTENCY_TTL_MS } from "../generations/service";
import { hourOf } from "../usage/event";

// What is kept, and for how long (docs/operations.md, "Retention"). Every instance runs
// this on a schedule; each step is a plain delete of rows past their time, so
// two instances running it at once do no harm.

const DAY_MS = 24 * 60 * 60 * 1000;

/** Sign-in and sign-up attempts: the limits read at most the last hour; a day is kept for the log's sake. */
export const AUTH_ATTEMPT_RETENTION_MS = DAY_MS;

export interface RetentionSettings {
  filesRetentionDays: number;
  generationRetentionDays: number;
  usageRetentionDays: number;
}

/** The hourly usage aggregates outlive the request log: a year and a month, for year-over-year charts. */
export const USAGE_AGGREGATE_RETENTION_DAYS = 400;

export interface PruneCounts {
  authAttempts: number;
  sessions: number;
  endedSessions: number;
  idempotencyRecords: number;
  generations: number;
  files: number;
  usageEvents: number;
  usageHours: number;
  usageErrorHours: number;
}

export async function pruneOnce(db: Db, settings: RetentionSettings, now = new Date()): Promise<PruneCounts> {
  const before = (ms: number) => new Date(now.getTime() - ms);
  const authAttempts = await db.authAttempt.deleteMany({
    where: { createdAt: { lt: before(AUTH_ATTEMPT_RETENTION_MS) } },
  });
  const sessions = await db.session.deleteMany({
    where: { OR: [{ expires: { lte: now } }, { lastSeenAt: { lt: before(SESSION_IDLE_TIMEOUT_MS) } }] },
  });
  const endedSessions = await db.endedSession.deleteMany({ where: { expiresAt: { lte: now } } });
  const idempotencyRecords = await db.idempotencyRecord.deleteMany({
    where: { createdAt: { lt: before(IDEMPOTENCY_TTL_MS) } },
  });
  // Finished generations only: a queued or running one is still someone's work.
  const generations = await db.generation.deleteMany({
    where: {
      status: { in: ["succeeded", "failed"] },
      createdAt: { lt: before(settings.generationRetentionDays * DAY_MS) },
    },
  });
  const files = await pruneFiles(db, before(settings.filesRetentionDays * DAY_MS));
  const usageEvents = await db.usageEvent.deleteMany({
    where: { createdAt: { lt: before(settings.usageRetentionDays * DAY_MS) } },
  });
  const aggregatesBefore = hourOf(before(USAGE_AGGREGATE_RETENTION_DAYS * DAY_MS));
  const usageHours = await db.usageHourly.deleteMany({ where: { hour: { lt: aggregatesBefore } } });
  // The error answers by code are aggregates too, kept as long.
  const usageErrorHours = await db.usageErrorHourly.deleteMany({ where: { hour: { lt: aggregatesBefore } } });
  return {
    authAttempts: authAttempts.count,
    sessions: sessions.count,
    endedSessions: endedSessions.count,
    idempotencyRecords: idempotencyRecords.count,
    generations: generations.count,
    files,
    usageEvents: usageEvents.count,
    usageHours: usageHours.count,
    usageErrorHours: usageErrorHours.count,
  };
}

/** The bytes first, then the row: a row whose bytes are gone is removed on this run or the next. */
async function pruneFiles(db: Db, olderThan: Date): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await db.storedFile.findMany({
      where: { createdAt: { lt: olderThan } },
      select: { id: true, storagePath: true },
      take: 500,
    });
    if (batch.length === 0) return removed;
    for (const file of batch) await rm(path.join(filesRoot(), file.storagePath), { force: true });
    const { count } = await db.storedFile.deleteMany({ where: { id: { in: batch.map((file) => file.id) } } });
    removed += count;
    if (batch.length < 500) return removed;
  }
}
