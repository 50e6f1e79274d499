import { staleUseBefore } from "../keys/verify";
import { hourOf, statusClass, type UsageEvent } from "./event";

// What one batch of usage writes, worked out once for both writers (Prisma's
// raw SQL in lib/usage/write-batch.ts, and the SQLite worker in
// lib/usage/sqlite-usage-worker.mjs): plain data, so it can be posted to a
// worker thread as it is.

export interface HourlyCount {
  keyId: string;
  hour: number;
  route: string;
  statusClass: string;
  userId: string;
  count: number;
}

/** The keys whose last use the batch moves, and the one time they are all given. */
export interface KeyTouches {
  /** The batch's latest marked request: at most a flush interval after the others. */
  at: Date;
  /** A stored last use older than this moves; a newer one (another instance's) stays. */
  staleBefore: Date;
  /** Each marked key and the address of its latest marked request. */
  ipByKey: Map<string, string>;
}

export interface UsageBatchPlan {
  /** Added to UsageHourly: one row per key, hour, route and status class. */
  hourly: HourlyCount[];
  /** Written to the request log: the events under the per-key log cap (lib/usage/buffer.ts). */
  events: UsageEvent[];
  touches: KeyTouches | null;
}

function hourlyCounts(events: readonly UsageEvent[]): HourlyCount[] {
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

/** The events marked touchesKey (lib/keys/verify.ts claimKeyUse). One time for all keeps the SQL to plain bound values. */
function keyTouches(events: readonly UsageEvent[]): KeyTouches | null {
  const ipByKey = new Map<string, string>();
  let at: Date | null = null;
  for (const event of events) {
    if (!event.touchesKey) continue;
    ipByKey.set(event.keyId, event.ip);
    if (!at || event.createdAt > at) at = event.createdAt;
  }
  return at ? { at, staleBefore: staleUseBefore(at), ipByKey } : null;
}

export function planUsageBatch(events: readonly UsageEvent[]): UsageBatchPlan {
  return {
    hourly: hourlyCounts(events),
    // Every event counts in the aggregates; only those under the log cap get a row in the log.
    events: events.filter((event) => event.logged !== false),
    touches: keyTouches(events),
  };
}
