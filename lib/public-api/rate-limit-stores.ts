import "server-only";
import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import type pg from "pg";
import type { Provider } from "../db-target";
import {
  MemoryRateLimitStore,
  type CounterPair,
  type PairCounts,
  type RateLimitStore,
  type StoreRoundTrips,
} from "./rate-limit";
import { countedPerTurn, type BatchCounterStore, type BatchRequest, type BatchTotals } from "./rate-limit-batch";

/**
 * Counters in PostgreSQL: one row per counter and window. The requests of one
 * turn are counted by one statement (lib/public-api/rate-limit-batch.ts): each
 * key's counter is raised by its requests, then each team's by the requests
 * its keys' limits let through, in one round trip.
 *
 * Exact, also across instances and under concurrency: each INSERT ... ON
 * CONFLICT DO UPDATE locks its row and adds to the latest committed count
 * (READ COMMITTED), so no increment is lost and no two requests get the same
 * place. Every statement locks its key rows, in order, before its team rows,
 * in order (the team rows are summed from every key row first), and no key row
 * is a team row ("rl:" and "rlt:" prefixes), so two statements never wait on
 * each other in a cycle.
 */
export class PostgresRateLimitStore implements RateLimitStore, BatchCounterStore {
  private lastSweep = 0;
  private readonly counted = countedPerTurn(this);

  /** `pool`: the gate's own PostgreSQL pool (a named statement is prepared once per connection). */
  constructor(private readonly pool: Pick<pg.Pool, "query">) {}

  /** Batches counted so far, and those that failed (tests, the benchmark and the metrics). */
  get batches() {
    return this.counted.batches;
  }

  get errors() {
    return this.counted.errors;
  }

  roundTrips(): StoreRoundTrips {
    return { store: "postgres", total: this.counted.batches, failed: this.counted.errors };
  }

  hitPair(pair: CounterPair, windowMs: number, now: number): Promise<PairCounts> {
    return this.counted.hitPair(pair, windowMs, now);
  }

  async addBatch(request: BatchRequest, windowEndsAt: number, windowMs: number): Promise<BatchTotals> {
    // The ISO instant, read as timestamptz and stored as UTC wall time, whatever the session's TimeZone.
    const endsAt = new Date(windowEndsAt).toISOString();
    const keys = request.keys.map((k) => `${k.counter}:${windowEndsAt}`);
    const accounts = request.keys.map((k) => `${k.account}:${windowEndsAt}`);
    const { rows } = await this.pool.query<{ kind: "k" | "a"; key: string; count: number }>({
      name: "keyport_rate_limit_batch",
      text: ADD_BATCH_SQL,
      values: [keys, request.keys.map((k) => k.count), request.keys.map((k) => k.limit), accounts, endsAt],
    });
    const totals: BatchTotals = { keys: new Map(), accounts: new Map() };
    const suffix = `:${windowEndsAt}`.length;
    for (const row of rows)
      (row.kind === "k" ? totals.keys : totals.accounts).set(row.key.slice(0, -suffix), row.count);
    if (totals.keys.size !== request.keys.length) throw new Error("missing rows from the rate-limit upsert");
    this.sweepOldWindows(Date.now(), windowMs);
    return totals;
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

// $1 the keys' counters (distinct), $2 each one's requests, $3 each one's limit, $4 each one's team counter,
// $5 the window's end. Answers every key's new total ("k") and every team's that took a request ("a").
const ADD_BATCH_SQL = `
  WITH input AS (
    SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::text[]) AS t("key", "n", "lim", "account")
  ), key_counter AS (
    INSERT INTO "RateLimitCounter" ("key", "windowEndsAt", "count")
    SELECT "key", $5::timestamptz AT TIME ZONE 'UTC', "n" FROM input ORDER BY "key"
    ON CONFLICT ("key") DO UPDATE SET "count" = "RateLimitCounter"."count" + EXCLUDED."count"
    RETURNING "key", "count"
  ), admitted AS (
    SELECT input."account", GREATEST(0, LEAST(input."n", input."lim" - (key_counter."count" - input."n"))) AS "a"
    FROM input JOIN key_counter ON key_counter."key" = input."key"
  ), account_counter AS (
    INSERT INTO "RateLimitCounter" ("key", "windowEndsAt", "count")
    SELECT "account", $5::timestamptz AT TIME ZONE 'UTC', sum("a")::int FROM admitted
    GROUP BY "account" HAVING sum("a") > 0 ORDER BY "account"
    ON CONFLICT ("key") DO UPDATE SET "count" = "RateLimitCounter"."count" + EXCLUDED."count"
    RETURNING "key", "count"
  )
  SELECT 'k' AS "kind", "key", "count" FROM key_counter
  UNION ALL SELECT 'a', "key", "count" FROM account_counter`;

// KEYS: the keys' counters (distinct), then each one's team counter, in the same order. ARGV: the expiry in
// milliseconds, then each key's requests and limit. Returns each key's new total, then each distinct team's (in
// the order first named), -1 for a team that took no request. A script runs atomically: the counts are exact.
const ADD_BATCH_LUA = `
local keys = #KEYS / 2
local out = {}
local added = {}
local teams = {}
for i = 1, keys do
  local n = tonumber(ARGV[2 * i])
  local limit = tonumber(ARGV[2 * i + 1])
  local total = redis.call("INCRBY", KEYS[i], n)
  redis.call("PEXPIRE", KEYS[i], ARGV[1])
  out[i] = total
  local team = KEYS[keys + i]
  if added[team] == nil then
    added[team] = 0
    teams[#teams + 1] = team
  end
  added[team] = added[team] + math.max(0, math.min(n, limit - (total - n)))
end
for j = 1, #teams do
  local team = teams[j]
  if added[team] > 0 then
    out[keys + j] = redis.call("INCRBY", team, added[team])
    redis.call("PEXPIRE", team, ARGV[1])
  else
    out[keys + j] = -1
  end
end
return out
`;
const ADD_BATCH_SHA = createHash("sha1").update(ADD_BATCH_LUA).digest("hex");

/**
 * Counters in Redis: the requests of one turn in one script call (one round trip; lib/public-api/rate-limit-batch.ts).
 * Fails fast when Redis is down.
 */
export class RedisRateLimitStore implements RateLimitStore, BatchCounterStore {
  private readonly redis: Redis;
  private readonly counted = countedPerTurn(this);

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

  /** Batches counted so far, and those that failed (tests, the benchmark and the metrics). */
  get batches() {
    return this.counted.batches;
  }

  get errors() {
    return this.counted.errors;
  }

  roundTrips(): StoreRoundTrips {
    return { store: "redis", total: this.counted.batches, failed: this.counted.errors };
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

  hitPair(pair: CounterPair, windowMs: number, now: number): Promise<PairCounts> {
    return this.counted.hitPair(pair, windowMs, now);
  }

  /** Answers once Redis does (a second's wait at most, as every command): readiness asks (lib/health.ts). */
  async ping(): Promise<void> {
    await this.ready();
    await this.redis.ping();
  }

  async addBatch(request: BatchRequest, windowEndsAt: number, windowMs: number): Promise<BatchTotals> {
    await this.ready();
    const counter = (name: string) => `keyport:${name}:${windowEndsAt}`;
    const keys = [...request.keys.map((k) => counter(k.counter)), ...request.keys.map((k) => counter(k.account))];
    const args = [windowMs * 2, ...request.keys.flatMap((k) => [k.count, k.limit])];
    const reply = await this.runAddBatch(keys, args);
    if (!Array.isArray(reply) || reply.some((value) => typeof value !== "number")) {
      throw new Error("unexpected reply from Redis");
    }
    const totals: BatchTotals = { keys: new Map(), accounts: new Map() };
    request.keys.forEach((k, i) => totals.keys.set(k.counter, reply[i] as number));
    const teams = [...new Set(request.keys.map((k) => k.account))];
    teams.forEach((team, j) => {
      const total = reply[request.keys.length + j] as number;
      if (total >= 0) totals.accounts.set(team, total);
    });
    return totals;
  }

  /** EVALSHA, and EVAL only when Redis does not hold the script yet (after a restart or SCRIPT FLUSH). */
  private async runAddBatch(keys: string[], args: number[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(ADD_BATCH_SHA, keys.length, ...keys, ...args);
    } catch (error) {
      if (!String((error as Error)?.message).startsWith("NOSCRIPT")) throw error;
      return this.redis.eval(ADD_BATCH_LUA, keys.length, ...keys, ...args);
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
