import "server-only";
import type { Db } from "../db";
import { Prisma } from "../generated/sqlite/client";
import { staleUseBefore } from "../keys/verify";
import { hourOf, statusClass, type UsageEvent } from "./event";

// One batch of usage, written in one transaction: the events into the request
// log, their counts added to the hourly aggregates with a single
// INSERT ... ON CONFLICT DO UPDATE, and the last use of the keys the batch
// marked moved with one UPDATE. Raw SQL on both databases, because
// Prisma's upsert on a compound key may read, then insert, and two instances
// flushing the same hour would then collide; this statement adds up instead.

interface HourlyCount {
  keyId: string;
  hour: number;
  route: string;
  statusClass: string;
  userId: string;
  count: number;
}

/** The batch's counts per key, hour, route and status class: one row each in the statement. */
export function hourlyCounts(events: readonly UsageEvent[]): HourlyCount[] {
  const counts = new Map<string, HourlyCount>();
  for (const event of events) {
    const row = {
      keyId: event.keyId,
      hour: hourOf(event.createdAt),
      route: event.route,
      statusClass: statusClass(event.status),
      userId: event.userId,
    };
    const id = `${row.keyId}\u0000${row.hour}\u0000${row.route}\u0000${row.statusClass}`;
    const existing = counts.get(id);
    if (existing) existing.count++;
    else counts.set(id, { ...row, count: 1 });
  }
  return [...counts.values()];
}

/**
 * The keys whose last use this batch moves (the events marked touchesKey),
 * with the address of each one's latest such request, and the time they are
 * all given: the batch's latest marked request, at most a flush interval
 * after the others (one time for all keeps the statement to plain bound
 * values on both databases).
 */
export function keyTouches(events: readonly UsageEvent[]): { at: Date; ipByKey: Map<string, string> } | null {
  const ipByKey = new Map<string, string>();
  let at: Date | null = null;
  for (const event of events) {
    if (!event.touchesKey) continue;
    ipByKey.set(event.keyId, event.ip);
    if (!at || event.createdAt > at) at = event.createdAt;
  }
  return at ? { at, ipByKey } : null;
}

function touchStatement(db: Db, touches: { at: Date; ipByKey: Map<string, string> }) {
  const ids = [...touches.ipByKey.keys()];
  const ipCases = Prisma.join(
    ids.map((id) => Prisma.sql`WHEN ${id} THEN ${touches.ipByKey.get(id)}`),
    " ",
  );
  // Only a row still older than a minute moves, so instances that used the same key meanwhile do not all write it.
  return db.$executeRaw`UPDATE "ApiKey" SET "lastUsedAt" = ${touches.at}, "lastUsedIp" = CASE "id" ${ipCases} END
    WHERE "id" IN (${Prisma.join(ids)})
      AND ("lastUsedAt" IS NULL OR "lastUsedAt" < ${staleUseBefore(touches.at)})`;
}

export async function writeUsageBatch(db: Db, events: readonly UsageEvent[]): Promise<void> {
  if (events.length === 0) return;
  const counts = Prisma.join(
    hourlyCounts(events).map(
      (c) => Prisma.sql`(${c.keyId}, ${c.hour}, ${c.route}, ${c.statusClass}, ${c.userId}, ${c.count})`,
    ),
  );
  const statements = [
    db.$executeRaw`INSERT INTO "UsageHourly" ("keyId", "hour", "route", "statusClass", "userId", "count")
      VALUES ${counts}
      ON CONFLICT ("keyId", "hour", "route", "statusClass")
      DO UPDATE SET "count" = "UsageHourly"."count" + excluded."count"`,
  ];
  // Every event counts; only those under the per-key log cap (lib/usage/buffer.ts) get a row in the log.
  const logged = events.filter((event) => event.logged !== false);
  if (logged.length > 0) {
    // The events as one multi-row INSERT too: Prisma's createMany spent 50 to 100 ms of CPU on a 500-event batch
    // (its per-row work), which on SQLite's synchronous driver stalls the requests waiting behind it.
    const rows = Prisma.join(
      logged.map(
        (e) =>
          Prisma.sql`(${e.requestId}, ${e.keyId}, ${e.userId}, ${e.route}, ${e.status}, ${e.errorCode}, ${e.latencyMs}, ${e.ip}, ${e.userAgent}, ${e.createdAt})`,
      ),
    );
    statements.push(db.$executeRaw`INSERT INTO "UsageEvent" ("requestId", "keyId", "userId", "route", "status", "errorCode", "latencyMs", "ip", "userAgent", "createdAt")
      VALUES ${rows}`);
  }
  const touches = keyTouches(events);
  if (touches) statements.push(touchStatement(db, touches));
  if (statements.length === 1) await statements[0];
  else await db.$transaction(statements);
}
