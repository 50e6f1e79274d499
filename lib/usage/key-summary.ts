import "server-only";
import type { Db } from "../db";
import { afterEndCounts } from "./after-end";
import { hourOf, STATUS_CLASSES, type StatusClass } from "./event";
import { rangeStart, type UsageRange } from "./usage-range";

// One key's usage over one of the dashboard's ranges, for the operator CLI
// (key:usage). Totals, status classes, routes and the requests made after
// revocation come from the hourly aggregates, which count every request (the
// request log keeps 120 a key and minute: a flood just before a revocation
// hid every use after it) and cover the whole range even past the log's
// retention; the client IPs come from the request log. The uses after
// revocation are counted as the dashboard counts them (lib/usage/after-end.ts).

export interface KeyUsageSummary {
  /** The start of the range as the dashboard draws it (rangeStart): the log and the aggregates read the same span. */
  since: Date;
  total: number;
  byStatusClass: Record<StatusClass, number>;
  byRoute: Record<string, number>;
  byIp: Record<string, number>;
  afterRevocation: number;
}

/** Counts, largest first, as an object (JSON keeps the order of non-numeric keys). */
function descending(entries: Iterable<[string, number]>): Record<string, number> {
  return Object.fromEntries([...entries].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)));
}

/** `keyId` is the key's row id (ApiKey.id), as the usage tables hold it. */
export async function keyUsageSummary(
  db: Db,
  keyId: string,
  range: UsageRange,
  now = new Date(),
): Promise<KeyUsageSummary> {
  const since = rangeStart(range, now);
  const firstHour = hourOf(since);
  const [hours, ips, afterRevocation] = await Promise.all([
    db.usageHourly.groupBy({
      by: ["route", "statusClass"],
      where: { keyId, hour: { gte: firstHour } },
      _sum: { count: true },
    }),
    db.usageEvent.groupBy({ by: ["ip"], where: { keyId, createdAt: { gte: since } }, _count: { _all: true } }),
    afterEndCounts(db, [keyId], since),
  ]);

  const byStatusClass = Object.fromEntries(STATUS_CLASSES.map((name) => [name, 0])) as Record<StatusClass, number>;
  const byRoute = new Map<string, number>();
  for (const row of hours) {
    const count = row._sum.count ?? 0;
    byStatusClass[row.statusClass as StatusClass] += count;
    byRoute.set(row.route, (byRoute.get(row.route) ?? 0) + count);
  }
  return {
    since,
    total: STATUS_CLASSES.reduce((sum, name) => sum + byStatusClass[name], 0),
    byStatusClass,
    byRoute: descending(byRoute),
    byIp: descending(ips.map((row) => [row.ip, row._count._all])),
    afterRevocation: afterRevocation.get(keyId)?.count ?? 0,
  };
}
