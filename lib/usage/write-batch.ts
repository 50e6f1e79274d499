import "server-only";
import type { Db } from "../db";
import { Prisma } from "../generated/sqlite/client";
import { hourOf, statusClass, type UsageEvent } from "./event";

// One batch of usage, written in one transaction: the events into the request
// log, and their counts added to the hourly aggregates with a single
// INSERT ... ON CONFLICT DO UPDATE. Raw SQL on both databases, because
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

export async function writeUsageBatch(db: Db, events: readonly UsageEvent[]): Promise<void> {
  if (events.length === 0) return;
  const counts = Prisma.join(
    hourlyCounts(events).map(
      (c) => Prisma.sql`(${c.keyId}, ${c.hour}, ${c.route}, ${c.statusClass}, ${c.userId}, ${c.count})`,
    ),
  );
  const aggregate = db.$executeRaw`INSERT INTO "UsageHourly" ("keyId", "hour", "route", "statusClass", "userId", "count")
      VALUES ${counts}
      ON CONFLICT ("keyId", "hour", "route", "statusClass")
      DO UPDATE SET "count" = "UsageHourly"."count" + excluded."count"`;
  // Every event counts; only those under the per-key log cap (lib/usage/buffer.ts) get a row in the log.
  const logged = events.filter((event) => event.logged !== false);
  if (logged.length === 0) {
    await aggregate;
    return;
  }
  // The events as one multi-row INSERT too: Prisma's createMany spent 50 to 100 ms of CPU on a 500-event batch
  // (its per-row work), which on SQLite's synchronous driver stalls the requests waiting behind it.
  const rows = Prisma.join(
    logged.map(
      (e) =>
        Prisma.sql`(${e.requestId}, ${e.keyId}, ${e.userId}, ${e.route}, ${e.status}, ${e.errorCode}, ${e.latencyMs}, ${e.ip}, ${e.userAgent}, ${e.createdAt})`,
    ),
  );
  await db.$transaction([
    db.$executeRaw`INSERT INTO "UsageEvent" ("requestId", "keyId", "userId", "route", "status", "errorCode", "latencyMs", "ip", "userAgent", "createdAt")
      VALUES ${rows}`,
    aggregate,
  ]);
}
