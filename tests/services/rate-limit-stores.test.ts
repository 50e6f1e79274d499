// Shared rate-limit stores against the real services: PostgreSQL (from
// TEST_DATABASE_URL) and a Redis server this test starts and stops itself.
// Run by `npm run test:services` (CI runs it; it needs redis-server and PostgreSQL).
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { dbProvider } from "@/lib/db";
import { UNRESTRICTED } from "@/lib/keys/restrictions";
import type { VerifiedKey } from "@/lib/keys/verify";
import { countRequest } from "@/lib/public-api/count-request";
import {
  keyBucket,
  teamBucket,
  MemoryRateLimitStore,
  WINDOW_MS,
  type PairCounts,
  type RateLimitStore,
} from "@/lib/public-api/rate-limit";
import { PostgresRateLimitStore, RedisRateLimitStore } from "@/lib/public-api/rate-limit-stores";
import { makeKeyFixtures, publicRoutes, type KeyFixtures } from "../helpers/api-fixtures";
import { postgresWire, redisCommands } from "../helpers/rate-limit-round-trips";
import { awayFromWindowEdge } from "../helpers/rate-window";

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let redis: ChildProcess;
let redisUrl: string;

beforeAll(async () => {
  const port = await freePort();
  redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  redisUrl = `redis://127.0.0.1:${port}`;
  await new Promise((resolve) => setTimeout(resolve, 300));
});
afterAll(() => {
  redis.kill("SIGKILL");
});

/** A second PostgreSQL client, as another instance of the app would have (its own pool). */
/** A pool of its own, as each instance's gate has (lib/gate-pool.ts). */
function postgresPool(url = process.env.DATABASE_URL!): pg.Pool {
  return new pg.Pool({ connectionString: url, max: 10 });
}

/** A development key of a fresh account, with its own limit of `rateLimit` requests a minute. */
function verifiedKey(rateLimit: number): VerifiedKey {
  const id = randomUUID();
  return {
    id,
    publicId: `key_${id}`,
    teamId: `team_${id}`,
    userId: `user-${id}`,
    environment: "dev",
    lastUsedAt: null,
    restrictions: { ...UNRESTRICTED, rateLimit },
    rateLimitByOperator: false,
  };
}

// Three keys of one account send REQUESTS requests each, all at once, through
// the given stores in turn (two instances of the app).
const REQUESTS = 20;
const KEY_LIMIT = 8;
const ACCOUNT_LIMIT = 20;
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

async function burst(stores: RateLimitStore[]) {
  const now = Date.now();
  const account = teamBucket(`team-${randomUUID()}`, "dev");
  const keys = [0, 1, 2].map(() => keyBucket(randomUUID()));
  const hit = (key: string, i: number) =>
    stores[i % stores.length]!.hitPair({ key, keyLimit: KEY_LIMIT, account }, WINDOW_MS, now);
  const results = await Promise.all(
    keys.flatMap((key, k) => range(REQUESTS).map(async (i) => ({ k, ...(await hit(key, k + i)) }))),
  );
  // One more request, from a key with room to spare: the account's count shows every request it counted.
  const after = await hit(keyBucket(randomUUID()), 0);
  return summary(results, after);
}

function summary(results: (PairCounts & { k: number })[], after: PairCounts) {
  const sorted = (counts: number[]) => counts.toSorted((a, b) => a - b);
  const accountCounts = results.flatMap((r) => (r.account ? [r.account.count] : []));
  return {
    keyCounts: [0, 1, 2].map((k) => sorted(results.filter((r) => r.k === k).map((r) => r.key.count))),
    keyAllowed: [0, 1, 2].map((k) => results.filter((r) => r.k === k && r.key.count <= KEY_LIMIT).length),
    accountCountedOnlyWhenKeyAllowed: results.every((r) => (r.account !== null) === r.key.count <= KEY_LIMIT),
    accountCounts: sorted(accountCounts),
    accountAllowed: accountCounts.filter((count) => count <= ACCOUNT_LIMIT).length,
    accountAfter: after.account?.count,
  };
}

const expected = {
  // Every key counts each of its requests once, and allows min(REQUESTS, KEY_LIMIT).
  keyCounts: [range(REQUESTS), range(REQUESTS), range(REQUESTS)],
  keyAllowed: [KEY_LIMIT, KEY_LIMIT, KEY_LIMIT],
  accountCountedOnlyWhenKeyAllowed: true,
  // The account counts exactly the 24 requests the keys allowed, none twice, none of the 36 they refused.
  accountCounts: range(3 * KEY_LIMIT),
  accountAllowed: Math.min(3 * KEY_LIMIT, ACCOUNT_LIMIT),
  accountAfter: 3 * KEY_LIMIT + 1,
};

/** The same requests, in turn, through countRequest: what the gate would answer (the reset varies with the clock). */
async function sequence(store: RateLimitStore) {
  await awayFromWindowEdge();
  const results = [];
  for (const key of [verifiedKey(3), verifiedKey(3)])
    for (let i = 0; i < 5; i++) {
      const rate = await countRequest(key, store);
      results.push(rate && { scope: rate.scope, limit: rate.limit, remaining: rate.remaining, allowed: rate.allowed });
    }
  return results;
}

describe("shared counters", () => {
  it("run on PostgreSQL in this suite", () => {
    expect(dbProvider()).toBe("postgres");
  });

  it("the memory store: each key allows its limit at once, and the account counts only what the keys allowed", async () => {
    expect(await burst([new MemoryRateLimitStore()])).toEqual(expected);
  });

  it("PostgreSQL: two instances count the same requests, exactly, also all at once", async () => {
    const [one, other] = [postgresPool(), postgresPool()];
    expect(await burst([new PostgresRateLimitStore(one), new PostgresRateLimitStore(other)])).toEqual(expected);
    expect(await sequence(new PostgresRateLimitStore(one))).toEqual(await sequence(new MemoryRateLimitStore()));
    await Promise.all([one.end(), other.end()]);
  });

  it("Redis: two instances count the same requests, exactly, also all at once", async () => {
    const [a, b] = [new RedisRateLimitStore(redisUrl), new RedisRateLimitStore(redisUrl)];
    expect(await burst([a, b])).toEqual(expected);
    expect(await sequence(a)).toEqual(await sequence(new MemoryRateLimitStore()));
    await Promise.all([a.close(), b.close()]);
  });
});

describe("one round trip per request, and one for all the requests of a turn", () => {
  it("PostgreSQL: one statement, whether the key allows the request or not", async () => {
    const wire = await postgresWire(process.env.DATABASE_URL!);
    const client = postgresPool(wire.url);
    const store = new PostgresRateLimitStore(client);
    const key = verifiedKey(3);
    await awayFromWindowEdge();
    // Connects, prepares the statement, and starts this instance's once-a-minute sweep of old windows, off the request's path.
    await countRequest(key, store);
    await vi.waitFor(() => expect(wire.statements().some((sql) => sql.startsWith("DELETE"))).toBe(true));
    expect(wire.statements()[0]).toMatch(/^\s*WITH input AS/);
    await wire.idle();
    wire.reset();

    const allowed = [];
    for (let i = 0; i < 5; i++) allowed.push((await countRequest(key, store))?.allowed);
    expect(allowed).toEqual([true, true, false, false, false]);
    expect(wire.executions()).toEqual(Array(5).fill("keyport_rate_limit_batch"));
    expect(wire.roundTrips()).toBe(5);

    // The proxy sees every statement: two more are two more.
    await client.query("SELECT 1");
    await client.query("SELECT 1");
    expect(wire.roundTrips()).toBe(7);

    // Requests of one turn share one statement, and each still gets its own place in the count.
    wire.reset();
    const together = verifiedKey(3);
    const rates = await Promise.all(Array.from({ length: 6 }, () => countRequest(together, store)));
    expect(rates.map((rate) => rate?.allowed)).toEqual([true, true, true, false, false, false]);
    expect(rates.map((rate) => rate?.remaining)).toEqual([2, 1, 0, 0, 0, 0]);
    expect(wire.executions()).toEqual(["keyport_rate_limit_batch"]);
    await client.end();
    await wire.close();
  });

  it("Redis: one EVALSHA, whether the key allows the request or not; EVAL only when Redis lost the script", async () => {
    const commands = await redisCommands(redisUrl);
    const store = new RedisRateLimitStore(redisUrl);
    const key = verifiedKey(3);
    await awayFromWindowEdge();
    await countRequest(key, store);

    await commands.control.script("FLUSH");
    expect(await commands.during(async () => countRequest(key, store))).toEqual(["evalsha", "eval"]);
    const allowed: (boolean | undefined)[] = [];
    const sent = await commands.during(async () => {
      for (let i = 0; i < 5; i++) allowed.push((await countRequest(key, store))?.allowed);
    });
    expect(allowed).toEqual([true, false, false, false, false]);
    expect(sent).toEqual(["evalsha", "evalsha", "evalsha", "evalsha", "evalsha"]);
    // Requests of one turn share one script call, and each still gets its own place in the count.
    const together = verifiedKey(3);
    let rates: Awaited<ReturnType<typeof countRequest>>[] = [];
    const once = await commands.during(async () => {
      rates = await Promise.all(Array.from({ length: 6 }, () => countRequest(together, store)));
    });
    expect(rates.map((rate) => rate?.allowed)).toEqual([true, true, true, false, false, false]);
    expect(once).toEqual(["evalsha"]);
    await store.close();
    await commands.close();
  });
});

describe("the gate when Redis stops", () => {
  let keys: KeyFixtures;
  const listModels = publicRoutes.find((r) => r.name === "list_models")!;

  async function loadGate(env: Record<string, string>) {
    Object.assign(process.env, env);
    // Fresh modules (the environment is parsed once per copy) and a runtime made from the new environment.
    vi.resetModules();
    const { publishRuntime } = await import("@/lib/runtime/runtime");
    const { createRuntime } = await import("@/lib/runtime/create-runtime");
    publishRuntime(createRuntime());
    return import("../helpers/api-fixtures");
  }

  it("answers 503 by default, and a logged pass-through with RATE_LIMIT_FAIL_OPEN=1", async () => {
    keys = await makeKeyFixtures();
    const closed = await loadGate({ REDIS_URL: redisUrl, RATE_LIMIT_FAIL_OPEN: "0" });
    expect((await closed.callApi(listModels, { headers: { Authorization: `Bearer ${keys.valid}` } })).status).toBe(200);

    redis.kill("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 200));
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const down = await closed.callApi(listModels, { headers: { Authorization: `Bearer ${keys.valid}` } });
    expect(down.status).toBe(503);
    expect(down.json.error.code).toBe("service_unavailable");
    expect(errors.mock.calls.some(([line]) => String(line).includes("api.rate_limit_store_down"))).toBe(true);
    errors.mockRestore();

    const open = await loadGate({ REDIS_URL: redisUrl, RATE_LIMIT_FAIL_OPEN: "1" });
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    const through = await open.callApi(listModels, { headers: { Authorization: `Bearer ${keys.valid}` } });
    expect(through.status).toBe(200);
    expect(through.headers.get("ratelimit-limit")).toBeNull();
    expect(warnings.mock.calls.some(([line]) => String(line).includes("api.rate_limit_store_down_fail_open"))).toBe(
      true,
    );
    warnings.mockRestore();
    delete process.env.REDIS_URL;
  });
});
