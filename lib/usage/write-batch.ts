import "server-only";
import type { Db } from "../db";
import { Prisma } from "../generated/sqlite/client";
import { planUsageBatch, type KeyTouches } from "./batch-plan";
import type { UsageEvent } from "./event";

// One batch of usage, written in one transaction: the events into the request
// log, their counts added to the hourly aggregates with a single
// INSERT ... ON CONFLICT DO UPDATE, and the last use of the keys the batch
// marked moved with one UPDATE. Raw SQL on both databases, because
// Prisma's upsert on a compound key may read, then insert, and two instances
// flushing the same hour would then collide; this statement adds up instead.
// The app writes this way on PostgreSQL; on SQLite its flush runs in a worker
// thread (lib/usage/sqlite-usage-writer.ts) with the same statements.

function touchStatement(db: Db, touches: KeyTouches) {
  const ids = [...touches.ipByKey.keys()];
  const ipCases = Prisma.join(
    ids.map((id) => Prisma.sql`WHEN ${id} THEN ${touches.ipByKey.get(id)}`),
    " ",
  );
  // Only a row still older than a minute moves, so instances that used the same key meanwhile do not all write it.
  return db.$executeRaw`UPDATE "ApiKey" SET "lastUsedAt" = ${touches.at}, "lastUsedIp" = CASE "id" ${ipCases} END
    WHERE "id" IN (${Prisma.join(ids)})
      AND ("lastUsedAt" IS NULL OR "lastUsedAt" < ${touches.staleBefore})`;
}

export async function writeUsageBatch(db: Db, events: readonly UsageEvent[]): Promise<void> {
  if (events.length === 0) return;
  const plan = planUsageBatch(events);
  const counts = Prisma.join(
    plan.hourly.map((c) => Prisma.sql`(${c.keyId}, ${c.hour}, ${c.route}, ${c.statusClass}, ${c.userId}, ${c.count})`),
  );
  const statements = [
    db.$executeRaw`INSERT INTO "UsageHourly" ("keyId", "hour", "route", "statusClass", "userId", "count")
      VALUES ${counts}
      ON CONFLICT ("keyId", "hour", "route", "statusClass")
      DO UPDATE SET "count" = "UsageHourly"."count" + excluded."count"`,
  ];
  if (plan.events.length > 0) {
    // The events as one multi-row INSERT too: Prisma's createMany spent 50 to 100 ms of CPU on a 500-event batch
    // (its per-row work), which on SQLite's synchronous driver stalls the requests waiting behind it.
    const rows = Prisma.join(
      plan.events.map(
        (e) =>
          Prisma.sql`(${e.requestId}, ${e.keyId}, ${e.userId}, ${e.route}, ${e.status}, ${e.errorCode}, ${e.latencyMs}, ${e.ip}, ${e.userAgent}, ${e.createdAt})`,
      ),
    );
    statements.push(db.$executeRaw`INSERT INTO "UsageEvent" ("requestId", "keyId", "userId", "route", "status", "errorCode", "latencyMs", "ip", "userAgent", "createdAt")
      VALUES ${rows}`);
  }
  if (plan.touches) statements.push(touchStatement(db, plan.touches));
  if (statements.length === 1) await statements[0];
  else await db.$transaction(statements);
}
