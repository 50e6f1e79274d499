import "server-only";
import { Redis } from "ioredis";
import type { Db } from "../db";
import type { RateLimitStore } from "./rate-limit";

/** Counters in PostgreSQL: one row per key and window, incremented by an atomic upsert. */
export class PostgresRateLimitStore implements RateLimitStore {
  private lastSweep = 0;

  constructor(private readonly db: Db) {}

  async hit(key: string, windowMs: number, now: number) {
    const windowEndsAt = Math.floor(now / windowMs) * windowMs + windowMs;
    const row = await this.db.rateLimitCounter.upsert({
      where: { key: `${key}:${windowEndsAt}` },
      create: { key: `${key}:${windowEndsAt}`, windowEndsAt: new Date(windowEndsAt), count: 1 },
      update: { count: { increment: 1 } },
      select: { count: true },
    });
    if (now - this.lastSweep > 60_000) {
      this.lastSweep = now;
      void this.db.rateLimitCounter
        .deleteMany({ where: { windowEndsAt: { lt: new Date(now - 10 * windowMs) } } })
        .catch(() => {});
    }
    return { count: row.count, windowEndsAt };
  }
}

/** Counters in Redis: INCR and an expiry per key and window. Fails fast when Redis is down. */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, {
      lazyConnect: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1_000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    });
    // Connection errors surface on each hit; without a listener ioredis would also print them raw.
    this.redis.on("error", () => {});
  }

  private pendingReady: Promise<void> | undefined;

  /** Waits up to a second for the connection (one wait shared by all callers); commands are never queued while Redis is away. */
  private ready(): Promise<void> {
    if (this.redis.status === "ready") return Promise.resolve();
    this.pendingReady ??= new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.redis.off("ready", onReady);
        reject(new Error(`Redis is not reachable (${this.redis.status})`));
      }, 1_000);
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      this.redis.once("ready", onReady);
    }).finally(() => {
      this.pendingReady = undefined;
    });
    return this.pendingReady;
  }

  async hit(key: string, windowMs: number, now: number) {
    await this.ready();
    const windowEndsAt = Math.floor(now / windowMs) * windowMs + windowMs;
    const redisKey = `keyport:${key}:${windowEndsAt}`;
    const result = await this.redis
      .multi()
      .incr(redisKey)
      .pexpire(redisKey, windowMs * 2)
      .exec();
    const [error, count] = result?.[0] ?? [new Error("no reply from Redis"), 0];
    if (error) throw error;
    return { count: Number(count), windowEndsAt };
  }

  async close() {
    this.redis.disconnect();
  }
}
