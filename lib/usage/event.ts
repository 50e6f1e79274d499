// One public API request as the usage log keeps it: who (the key and its
// owner), what (route, status, error code, latency), from where (client IP
// and a truncated user agent) and when. Never a secret, a header value other
// than the user agent, or a body.

export interface UsageEvent {
  requestId: string;
  /** ApiKey.id, the row id (never leaves lib/). */
  keyId: string;
  userId: string;
  route: string;
  status: number;
  /** The error catalog's code when the answer was an error (revoked_api_key, insufficient_scope, ...). */
  errorCode: string | null;
  latencyMs: number;
  ip: string;
  userAgent: string | null;
  createdAt: Date;
  /** False when the per-key log cap was reached: the event then only counts in the hourly aggregates. */
  logged?: boolean;
  /** The key's first use in a minute on this instance (lib/keys/verify.ts claimKeyUse): the flush moves its last use. */
  touchesKey?: boolean;
  /**
   * The requests this event stands for in the hourly aggregates (1 when absent): the buffer adds unlogged requests
   * of the same key, route, status class, error code and hour to one waiting event (lib/usage/buffer.ts).
   */
  count?: number;
}

export type StatusClass = "2xx" | "4xx" | "5xx";

export const STATUS_CLASSES: readonly StatusClass[] = ["2xx", "4xx", "5xx"];

/** 1xx and 3xx do not occur on the public API; they count with 2xx, as answers that were not errors. */
export function statusClass(status: number): StatusClass {
  if (status >= 500) return "5xx";
  if (status >= 400) return "4xx";
  return "2xx";
}

/** How much of a user agent the request log keeps (lib/text.ts cleanUserAgent). */
export const USER_AGENT_MAX_LENGTH = 256;

const HOUR_MS = 3_600_000;

/** The aggregates' hour: whole hours since 1970-01-01 UTC. */
export function hourOf(date: Date): number {
  return Math.floor(date.getTime() / HOUR_MS);
}

export function hourStart(hour: number): Date {
  return new Date(hour * HOUR_MS);
}

/** Where the gate hands each event; it must never block or throw into a request. */
export interface UsageSink {
  record(event: UsageEvent): void;
}

/** The requests a batch of events stands for: an unlogged event may stand for many (`count`). */
export function requestsIn(events: readonly UsageEvent[]): number {
  let requests = 0;
  for (const event of events) requests += event.count ?? 1;
  return requests;
}

/** For tests and the benchmark's baseline: records nothing. */
export const DISCARD_USAGE: UsageSink = { record() {} };
