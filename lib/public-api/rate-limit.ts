// Rate limits: a fixed one-minute window per key, and one per account and
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

export interface RateLimitStore {
  /** Counts one request for `key` in the current window and returns the count so far. */
  hit(key: string, windowMs: number, now: number): Promise<{ count: number; windowEndsAt: number }>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  private windows = new Map<string, { count: number; windowEndsAt: number }>();

  async hit(key: string, windowMs: number, now: number) {
    const current = this.windows.get(key);
    if (!current || current.windowEndsAt <= now) {
      const fresh = { count: 1, windowEndsAt: Math.floor(now / windowMs) * windowMs + windowMs };
      this.windows.set(key, fresh);
      if (this.windows.size > 100_000) this.sweep(now);
      return fresh;
    }
    current.count++;
    return current;
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.windowEndsAt <= now) this.windows.delete(key);
  }
}

export const WINDOW_MS = 60_000;

/** The counter of one key. */
export const keyBucket = (keyId: string) => `rl:${keyId}`;
/** The counter of all of an account's keys of one environment. */
export const accountBucket = (userId: string, environment: string) => `rla:${userId}:${environment}`;

export async function checkRateLimit(
  store: RateLimitStore,
  bucket: string,
  limit: number,
  now = Date.now(),
): Promise<RateLimitResult> {
  const { count, windowEndsAt } = await store.hit(bucket, WINDOW_MS, now);
  return {
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowEndsAt - now) / 1000)),
    allowed: count <= limit,
  };
}

/** Of two limits that both apply, the one a client should pace itself by: the one with fewer requests left. */
export function tighter<T extends RateLimitResult>(a: T, b: T): T {
  return b.remaining < a.remaining || (b.remaining === a.remaining && b.resetSeconds > a.resetSeconds) ? b : a;
}

export function rateLimitHeaders(result: RateLimitResult): Record<string, string> {
  return {
    "RateLimit-Limit": String(result.limit),
    "RateLimit-Remaining": String(result.remaining),
    "RateLimit-Reset": String(result.resetSeconds),
  };
}
