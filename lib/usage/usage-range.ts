import { z } from "zod";
import { STATUS_CLASSES, type StatusClass } from "./event";

// The ranges a key's usage is shown over, said once: the chart's switch, the
// request log, the CSV route and the queries read them here. 24 hours in
// hourly bars; 7 and 30 days in daily bars (UTC days, today included).

export const USAGE_RANGES = ["24h", "7d", "30d"] as const;
export type UsageRange = (typeof USAGE_RANGES)[number];
export const DEFAULT_USAGE_RANGE: UsageRange = "7d";

export interface RangeSpec {
  label: string;
  /** For the range switch. */
  short: string;
  bucket: "hour" | "day";
  buckets: number;
}

export const RANGE_SPECS: Record<UsageRange, RangeSpec> = {
  "24h": { label: "Last 24 hours", short: "24 hours", bucket: "hour", buckets: 24 },
  "7d": { label: "Last 7 days", short: "7 days", bucket: "day", buckets: 7 },
  "30d": { label: "Last 30 days", short: "30 days", bucket: "day", buckets: 30 },
};

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The first moment a range covers: the start of its first bucket. */
export function rangeStart(range: UsageRange, now: Date): Date {
  const { bucket, buckets } = RANGE_SPECS[range];
  const size = bucket === "hour" ? HOUR_MS : DAY_MS;
  const current = Math.floor(now.getTime() / size);
  return new Date((current - buckets + 1) * size);
}

export const usageRangeSchema = z.enum(USAGE_RANGES, {
  error: `The range must be one of ${USAGE_RANGES.join(", ")}.`,
});

export const statusClassSchema = z.enum(STATUS_CLASSES as [StatusClass, ...StatusClass[]], {
  error: `The status must be one of ${STATUS_CLASSES.join(", ")}.`,
});

/** A route name as the usage log stores it (the registry's names: lowercase words and underscores). */
export const usageRouteSchema = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, "The route must be a route's name.");

export interface RequestLogFilter {
  statusClass?: StatusClass | undefined;
  route?: string | undefined;
}
