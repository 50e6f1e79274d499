import "server-only";
import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import type pg from "pg";
import type { Provider } from "../db-target";
import { MemoryRateLimitStore, windowEnd, type CounterPair, type PairCounts, type RateLimitStore } from "./rate-limit";

/**
 * Counters in PostgreSQL: one row per counter and window, both of a request's
 * counters upserted by one statement (one round trip).
 *
 * Exact, also across instances and under concurrency: each INSERT ... ON
 * CONFLICT DO UPDATE locks its row and adds one to the latest committed count
 * (READ COMMITTED), so no increment is lost and no two requests see the same
 * count. The account's row is upserted only from the key's RETURNING row, so
 * only when the key's new count is within its limit. Every statement locks its
 * key's row before its account's row, and no key row is an account row
 * ("rl:" and "rla:" prefixes), so two requests never wait on each other in a
 * cycle. The one cost: an account's requests queue on its row from the key's
 * upsert until the commit, a moment longer than with two statements.
 */
export class PostgresRateLimitStore implements RateLimitStore {
  private lastSweep = 0;

  /** `pool`: the gate's own PostgreSQL pool (a named statement is prepared once per connection). */
  constructor(private readonly pool: Pick<pg.Pool, "query">) {}

  async hitPair(pair: CounterPair, windowMs: number, now: number): Promise<PairCounts> {
    const windowEndsAt = windowEnd(now, windowMs);
    // The ISO instant, read as timestamptz and stored as UTC wall time, whatever the session's TimeZone.
    const endsAt = new Date(windowEndsAt).toISOString();
    const { rows } = await this.pool.query<{ keyCount: number; accountCount: number | null }>({
      name: "keyport_rate_limit_pair",
      text: HIT_PAIR_SQL,
      values: [`${pair.key}:${windowEndsAt}`, endsAt, `${pair.account}:${windowEndsAt}`, pair.keyLimit],
    });
    const row = rows[0];
    if (!row) throw new Error("no row from the rate-limit upsert");
    this.sweepOldWindows(now, windowMs);
    return {
      key: { count: row.keyCount, windowEndsAt },
      account: row.accountCount === null ? null : { count: row.accountCount, windowEndsAt },
    };
  }

  /** At most once a minute per instance, off the request's path: drops windows long past. */
  private sweepOldWindows(now: number, windowMs: number) {
    if (now - this.lastSweep <= 60_000) return;
    this.lastSweep = now;
    const before = new Date(now - 10 * windowMs).toISOString();
    void this.pool
      .query(`DELETE FROM "RateLimitCounter" WHERE "windowEndsAt" < $1::timestamptz AT TIME ZONE 'UTC'`, [before])
      .catch(() => {});
  }
}

// $1 the key's counter, $2 the window's end, $3 the account's counter, $4 the key's limit.
const HIT_PAIR_SQL = `
  WITH key_counter AS (
    INSERT INTO "RateLimitCounter" ("key", "windowEndsAt", "count")
    VALUES ($1, $2::timestamptz AT TIME ZONE 'UTC', 1)
    ON CONFLICT ("key") DO UPDATE SET "count" = "RateLimitCounter"."count" + 1
    RETURNING "count"
  ), account_counter AS (
    INSERT INTO "RateLimitCounter" ("key", "windowEndsAt", "count")
    SELECT $3, $2::timestamptz AT TIME ZONE 'UTC', 1
    FROM key_counter WHERE key_counter."count" <= $4::integer
    ON CONFLICT ("key") DO UPDATE SET "count" = "RateLimitCounter"."count" + 1
    RETURNING "count"
  )
  SELECT key_counter."count" AS "keyCount", account_counter."count" AS "accountCount"
  FROM key_counter LEFT JOIN account_counter ON true`;

// KEYS: the key's counter, the account's. ARGV: the key's limit, the expiry in
// milliseconds. Returns {keyCount, accountCount}, or {keyCount} when the key's
// limit refused the request and the account was not counted. A script runs
// atomically, so the counts are exact.
const HIT_PAIR_LUA = `
local keyCount = redis.call("INCR", KEYS[1])
redis.call("PEXPIRE", KEYS[1], ARGV[2])
if keyCount > tonumber(ARGV[1]) then return {keyCount} end
local accountCount = redis.call("INCR", KEYS[2])
redis.call("PEXPIRE", KEYS[2], ARGV[2])
return {keyCount, accountCount}
`;
const HIT_PAIR_SHA = createHash("sha1").update(HIT_PAIR_LUA).digest("hex");

/** Counters in Redis: both of a request's counters in one script call (one round trip). Fails fast when Redis is down. */
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

  async hitPair(pair: CounterPair, windowMs: number, now: number): Promise<PairCounts> {
    await this.ready();
    const windowEndsAt = windowEnd(now, windowMs);
    const reply = await this.runHitPair(
      [`keyport:${pair.key}:${windowEndsAt}`, `keyport:${pair.account}:${windowEndsAt}`],
      [pair.keyLimit, windowMs * 2],
    );
    if (!Array.isArray(reply) || typeof reply[0] !== "number") throw new Error("unexpected reply from Redis");
    const accountCount: unknown = reply[1];
    return {
      key: { count: reply[0], windowEndsAt },
      account: typeof accountCount === "number" ? { count: accountCount, windowEndsAt } : null,
    };
  }

  /** EVALSHA, and EVAL only when Redis does not hold the script yet (after a restart or SCRIPT FLUSH). */
  private async runHitPair(keys: [string, string], args: number[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(HIT_PAIR_SHA, keys.length, ...keys, ...args);
    } catch (error) {
      if (!String((error as Error)?.message).startsWith("NOSCRIPT")) throw error;
      return this.redis.eval(HIT_PAIR_LUA, keys.length, ...keys, ...args);
    }
  }

  async close() {
    this.redis.disconnect();
  }
}

/**
 * Where the rate-limit counters live: Redis when REDIS_URL is set, PostgreSQL
 * when the database is, so every instance counts the same requests; in
 * process only on the SQLite default (one instance).
 */
export function createRateLimitStore(options: {
  redisUrl: string | undefined;
  provider: Provider;
  gatePool: () => pg.Pool;
}): RateLimitStore {
  if (options.redisUrl) return new RedisRateLimitStore(options.redisUrl);
  return options.provider === "postgres" ? new PostgresRateLimitStore(options.gatePool()) : new MemoryRateLimitStore();
}
