import { andThen, type MaybePromise } from "../maybe-promise";

// Rate limits: a fixed one-minute window per key, and one per team and
// environment over all its keys (so rotated keys in their grace period add no
// capacity). The counters sit behind RateLimitStore so a shared store
// (PostgreSQL, Redis) can replace the in-process one when several instances
// serve the API.
export interface RateLimitResult {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  allowed: boolean;
}

/** One counter's count in the current window. */
export interface CounterWindow {
  count: number;
  windowEndsAt: number;
}

/** The two counters one request goes through: its key's, then its account's. */
export interface CounterPair {
  key: string;
  /** Past this count the key's limit refuses the request, and the account's counter is left alone. */
  keyLimit: number;
  account: string;
}

export interface PairCounts {
  key: CounterWindow;
  /** Null when the key's count passed keyLimit: a request the key refuses uses none of the account's allowance. */
  account: CounterWindow | null;
}

export interface RateLimitStore {
  /**
   * Counts one request against `pair.key` and, only while that count is
   * within `pair.keyLimit`, against `pair.account`, in the window holding
   * `now`. A shared store does both in one round trip.
   */
  hitPair(pair: CounterPair, windowMs: number, now: number): MaybePromise<PairCounts>;
  /** A store apart from the database (Redis): answers when it is reachable, for readiness (lib/health.ts). */
  ping?(): Promise<void>;
  /** A shared store's round trips so far, and how many of them failed (the metrics); the in-process store makes none. */
  roundTrips?(): StoreRoundTrips;
}

export interface StoreRoundTrips {
  store: "postgres" | "redis";
  total: number;
  failed: number;
}

/** The end of the fixed window holding `now`: every store and every instance agree on it. */
export function windowEnd(now: number, windowMs: number): number {
  return Math.floor(now / windowMs) * windowMs + windowMs;
}

export class MemoryRateLimitStore implements RateLimitStore {
  private windows = new Map<string, CounterWindow>();

  /** At once: the counters are in this process. */
  hitPair(pair: CounterPair, windowMs: number, now: number): PairCounts {
    const key = this.hit(pair.key, windowMs, now);
    return { key, account: key.count <= pair.keyLimit ? this.hit(pair.account, windowMs, now) : null };
  }

  /** Copies, so a caller never sees a later request's count. */
  private hit(key: string, windowMs: number, now: number): CounterWindow {
    const current = this.windows.get(key);
    if (!current || current.windowEndsAt <= now) {
      const fresh = { count: 1, windowEndsAt: windowEnd(now, windowMs) };
      this.windows.set(key, fresh);
      if (this.windows.size > 100_000) this.sweep(now);
      return { ...fresh };
    }
    current.count++;
    return { ...current };
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.windowEndsAt <= now) this.windows.delete(key);
  }
}

export const WINDOW_MS = 60_000;

/** The counter of one key. */
export const keyBucket = (keyId: string) => `rl:${keyId}`;
/**
 * The counter of all of a team's keys of one environment (the team-wide limit; the
 * RATE_LIMIT_ACCOUNT_* settings keep their names). The stores call it the "account"
 * counter, as the limit was per account before teams.
 */
export const teamBucket = (teamId: string, environment: string) => `rlt:${teamId}:${environment}`;

function toResult({ count, windowEndsAt }: CounterWindow, limit: number, now: number): RateLimitResult {
  return {
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowEndsAt - now) / 1000)),
    allowed: count <= limit,
  };
}

/**
 * Counts one request against a key's limit and its account's, in one call to
 * the store. `account` is null when the key's own limit refused the request
 * (which then did not count against the account).
 */
export function checkRateLimitPair(
  store: RateLimitStore,
  buckets: { key: string; keyLimit: number; account: string; accountLimit: number },
  now = Date.now(),
): MaybePromise<{ key: RateLimitResult; account: RateLimitResult | null }> {
  return andThen(store.hitPair(buckets, WINDOW_MS, now), (counts) => ({
    key: toResult(counts.key, buckets.keyLimit, now),
    account: counts.account && toResult(counts.account, buckets.accountLimit, now),
  }));
}

/** Of two limits that both apply, the one a client should pace itself by: the one with fewer requests left. */
export function tighter<T extends RateLimitResult>(a: T, b: T): T {
  return b.remaining < a.remaining || (b.remaining === a.remaining && b.resetSeconds > a.resetSeconds) ? b : a;
}

export function rateLimitHeaders(result: RateLimitResult): [string, string][] {
  return [
    ["RateLimit-Limit", String(result.limit)],
    ["RateLimit-Remaining", String(result.remaining)],
    ["RateLimit-Reset", String(result.resetSeconds)],
  ];
}
