import { staleUseBefore } from "../keys/verify";
import { hourOf, statusClass, type UsageEvent } from "./event";

// What one batch of usage writes, worked out once for both writers (PostgreSQL's
// in lib/usage/postgres-usage-writer.ts, and the SQLite worker in
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

/** Error answers of one key with one error code in one hour (UsageErrorHourly). */
export interface ErrorCount {
  keyId: string;
  hour: number;
  errorCode: string;
  userId: string;
  count: number;
}

/** A key whose last use the batch moves: its latest marked request's time and address. */
export interface KeyTouch {
  keyId: string;
  at: Date;
  ip: string;
  /** A stored last use older than this moves; a newer one (another instance's) stays. */
  staleBefore: Date;
}

export interface UsageBatchPlan {
  /** Added to UsageHourly: one row per key, hour, route and status class. */
  hourly: HourlyCount[];
  /** Added to UsageErrorHourly: one row per key, hour and error code, for every error answer, logged or not. */
  errors: ErrorCount[];
  /** Written to the request log: the events under the per-key log cap (lib/usage/buffer.ts). */
  events: UsageEvent[];
  /** In key order, like the hourly rows, so that concurrent flushes lock rows in the same order. */
  touches: KeyTouch[];
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
    const requests = event.count ?? 1;
    if (existing) existing.count += requests;
    else counts.set(id, { ...row, count: requests });
  }
  // In one order everywhere: two instances adding to the same rows then lock them in the same order (no deadlock).
  const order = (c: HourlyCount) =>
    `${c.keyId}\u0000${String(c.hour).padStart(10, "0")}\u0000${c.route}\u0000${c.statusClass}`;
  return [...counts.values()].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

/** The error answers by key, hour and code, in one order everywhere like the hourly rows. */
function errorCounts(events: readonly UsageEvent[]): ErrorCount[] {
  const counts = new Map<string, ErrorCount>();
  for (const event of events) {
    if (event.errorCode === null) continue;
    const hour = hourOf(event.createdAt);
    const id = `${event.keyId}\u0000${String(hour).padStart(10, "0")}\u0000${event.errorCode}`;
    const existing = counts.get(id);
    const requests = event.count ?? 1;
    if (existing) existing.count += requests;
    else
      counts.set(id, { keyId: event.keyId, hour, errorCode: event.errorCode, userId: event.userId, count: requests });
  }
  return [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, count]) => count);
}

/** The events marked touchesKey (lib/keys/verify.ts claimKeyUse): each key's own latest, never another key's time. */
function keyTouches(events: readonly UsageEvent[]): KeyTouch[] {
  const latest = new Map<string, UsageEvent>();
  for (const event of events) {
    if (!event.touchesKey) continue;
    const held = latest.get(event.keyId);
    if (!held || event.createdAt >= held.createdAt) latest.set(event.keyId, event);
  }
  return [...latest.values()]
    .map((e) => ({ keyId: e.keyId, at: e.createdAt, ip: e.ip, staleBefore: staleUseBefore(e.createdAt) }))
    .sort((a, b) => (a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : 0));
}

export function planUsageBatch(events: readonly UsageEvent[]): UsageBatchPlan {
  return {
    hourly: hourlyCounts(events),
    errors: errorCounts(events),
    // Every event counts in the aggregates; only those under the log cap get a row in the log.
    events: events.filter((event) => event.logged !== false),
    touches: keyTouches(events),
  };
}
