import "server-only";
import { db } from "../db";
import { getEnv } from "../env";
import { hourOf, STATUS_CLASSES, type StatusClass, type UsageEvent } from "./event";
import { ownedKeyRowId } from "./owned-key";
import { RANGE_SPECS, rangeStart, type RequestLogFilter, type UsageRange } from "./usage-range";

// What the dashboard shows of a key's use. Counts come from the hourly
// aggregates (kept 400 days); anything per request (client IPs, the log)
// from the request log, kept USAGE_RETENTION_DAYS. Every query is scoped by
// the key's row id, found through ownedKeyRowId (which checks it is the team's).

export const REQUEST_LOG_PAGE_SIZE = 25;
const TOP_COUNT = 5;
const DAY_MS = 86_400_000;

export type StatusCounts = Record<StatusClass, number>;

export interface UsageBucket extends StatusCounts {
  /** The start of the hour or (UTC) day. */
  start: Date;
}

export interface Share {
  value: string;
  count: number;
  /** Of all requests in the range, 0 to 1. */
  share: number;
}

export interface KeyUsage {
  range: UsageRange;
  buckets: UsageBucket[];
  totals: StatusCounts & { total: number };
  topRoutes: Share[];
  topIps: Share[];
  /** Where the per-request data (IPs, the log) starts: the range's start, or the retention's when later. */
  logSince: Date;
}

const zeroCounts = (): StatusCounts => ({ "2xx": 0, "4xx": 0, "5xx": 0 });
const asStatusClass = (value: string): StatusClass =>
  (STATUS_CLASSES as readonly string[]).includes(value) ? (value as StatusClass) : "5xx";

/** The earliest moment the request log can still hold, for a range. */
export function logSince(range: UsageRange, now: Date): Date {
  const retained = new Date(now.getTime() - getEnv().USAGE_RETENTION_DAYS * DAY_MS);
  const start = rangeStart(range, now);
  return start > retained ? start : retained;
}

/** A key's requests over a range, in buckets by status class, with its top routes and client IPs. Null: not the team's key. */
export async function getKeyUsage(
  teamId: string,
  publicId: string,
  range: UsageRange,
  now = new Date(),
): Promise<KeyUsage | null> {
  const keyId = await ownedKeyRowId(teamId, publicId);
  if (!keyId) return null;
  const start = rangeStart(range, now);
  const since = logSince(range, now);
  // By the key's row id alone, once ownership is checked: with the user id in the filter too, SQLite's planner
  // (no statistics) picked the user's index and read every row of the account.
  const hourly = { keyId, hour: { gte: hourOf(start) } };
  const events = { keyId, createdAt: { gte: since } };
  const [byHour, byRoute, byIp, eventCount] = await Promise.all([
    db.usageHourly.groupBy({ by: ["hour", "statusClass"], where: hourly, _sum: { count: true } }),
    db.usageHourly.groupBy({ by: ["route"], where: hourly, _sum: { count: true } }),
    db.usageEvent.groupBy({
      by: ["ip"],
      where: events,
      _count: { _all: true },
      orderBy: [{ _count: { ip: "desc" } }, { ip: "asc" }],
      take: TOP_COUNT,
    }),
    db.usageEvent.count({ where: events }),
  ]);

  const { bucket, buckets: bucketCount } = RANGE_SPECS[range];
  const hoursPerBucket = bucket === "hour" ? 1 : 24;
  const firstHour = hourOf(start);
  const buckets: UsageBucket[] = Array.from({ length: bucketCount }, (_, i) => ({
    start: new Date(start.getTime() + i * hoursPerBucket * 3_600_000),
    ...zeroCounts(),
  }));
  const totals = { ...zeroCounts(), total: 0 };
  for (const row of byHour) {
    const target = buckets[Math.floor((row.hour - firstHour) / hoursPerBucket)];
    const count = row._sum.count ?? 0;
    const statusClass = asStatusClass(row.statusClass);
    // A row past the last bucket (a clock ahead of ours) is left out of both.
    if (!target) continue;
    target[statusClass] += count;
    totals[statusClass] += count;
    totals.total += count;
  }

  const routeTotal = byRoute.reduce((sum, row) => sum + (row._sum.count ?? 0), 0);
  const topRoutes = byRoute
    .map((row) => ({ value: row.route, count: row._sum.count ?? 0 }))
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value))
    .slice(0, TOP_COUNT)
    .map((row) => ({ ...row, share: routeTotal ? row.count / routeTotal : 0 }));
  const topIps = byIp.map((row) => ({
    value: row.ip,
    count: row._count._all,
    share: eventCount ? row._count._all / eventCount : 0,
  }));
  return { range, buckets, totals, topRoutes, topIps, logSince: since };
}

/** A row of the request log as the page and the CSV show it: the recorded event without its owner ids. */
export type RequestLogRow = Pick<
  UsageEvent,
  "requestId" | "createdAt" | "route" | "status" | "errorCode" | "latencyMs" | "ip" | "userAgent"
>;

export const requestLogSelect = {
  requestId: true,
  createdAt: true,
  route: true,
  status: true,
  errorCode: true,
  latencyMs: true,
  ip: true,
  userAgent: true,
} as const;

const STATUS_RANGES: Record<StatusClass, { gte?: number; lt?: number }> = {
  "2xx": { lt: 400 },
  "4xx": { gte: 400, lt: 500 },
  "5xx": { gte: 500 },
};

/** The request log's where: the key, its owner, the range and the filters. */
/** A key's log rows over a range: by its row id alone, which the caller has already checked is the team's. */
export function requestLogWhere(keyId: string, since: Date, filter: RequestLogFilter) {
  return {
    keyId,
    createdAt: { gte: since },
    ...(filter.statusClass ? { status: STATUS_RANGES[filter.statusClass] } : {}),
    ...(filter.route ? { route: filter.route } : {}),
  };
}

export interface RequestLogPage {
  items: RequestLogRow[];
  page: number;
  pageCount: number;
  total: number;
}

/** How deep the page's log goes: 100 pages of 25, the newest 2,500 requests of the filter; the CSV has them all. */
export const MAX_LOG_PAGES = 100;

/** One page of a key's requests over a range, newest first, filtered. Null: not the team's key. */
export async function listRequests(
  teamId: string,
  publicId: string,
  options: { range: UsageRange; filter?: RequestLogFilter; page?: number | undefined },
  now = new Date(),
): Promise<RequestLogPage | null> {
  const keyId = await ownedKeyRowId(teamId, publicId);
  if (!keyId) return null;
  const where = requestLogWhere(keyId, logSince(options.range, now), options.filter ?? {});
  const total = await db.usageEvent.count({ where });
  // Paging skips rows, which costs more the deeper it goes: the page reaches back MAX_LOG_PAGES pages, the CSV further.
  const pageCount = Math.min(MAX_LOG_PAGES, Math.max(1, Math.ceil(total / REQUEST_LOG_PAGE_SIZE)));
  const page = Math.min(Math.max(1, options.page ?? 1), pageCount);
  const items = await db.usageEvent.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { requestId: "desc" }],
    skip: (page - 1) * REQUEST_LOG_PAGE_SIZE,
    take: REQUEST_LOG_PAGE_SIZE,
    select: requestLogSelect,
  });
  return { items, page, pageCount, total };
}

/**
 * Requests in the last 24 hours (the current hour and the 23 before it) for
 * each of the team's keys named, by public id, in one grouped query. Keys of
 * another team, or unknown, are left out.
 */
export async function requestsLast24h(
  teamId: string,
  publicIds: readonly string[],
  now = new Date(),
): Promise<Record<string, number>> {
  if (publicIds.length === 0) return {};
  const keys = await db.apiKey.findMany({
    where: { teamId, publicId: { in: [...publicIds] } },
    select: { id: true, publicId: true },
  });
  const counts: Record<string, number> = Object.fromEntries(keys.map((key) => [key.publicId, 0]));
  if (keys.length === 0) return counts;
  const publicIdOf = new Map(keys.map((key) => [key.id, key.publicId]));
  const rows = await db.usageHourly.groupBy({
    by: ["keyId"],
    where: { keyId: { in: [...publicIdOf.keys()] }, hour: { gte: hourOf(now) - 23 } },
    _sum: { count: true },
  });
  for (const row of rows) {
    const publicId = publicIdOf.get(row.keyId);
    if (publicId) counts[publicId] = row._sum.count ?? 0;
  }
  return counts;
}
