// Shared rate-limit stores against the real services: PostgreSQL (from
// TEST_DATABASE_URL) and a Redis server this test starts and stops itself.
// Run by `npm run test:services` (CI runs it; it needs redis-server and PostgreSQL).
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db, dbProvider } from "@/lib/db";
import { checkRateLimit, keyBucket } from "@/lib/public-api/rate-limit";
import { PostgresRateLimitStore, RedisRateLimitStore } from "@/lib/public-api/rate-limit-stores";
import { makeKeyFixtures, publicRoutes, type KeyFixtures } from "../helpers/api-fixtures";

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

describe("shared counters", () => {
  it("run on PostgreSQL in this suite", () => {
    expect(dbProvider()).toBe("postgres");
  });

  it("PostgreSQL: two instances' stores count the same requests", async () => {
    const [a, b] = [new PostgresRateLimitStore(db), new PostgresRateLimitStore(db)];
    const key = `test-${Date.now()}`;
    const counts = [];
    for (let i = 0; i < 6; i++) counts.push((await checkRateLimit(i % 2 ? a : b, keyBucket(key), 5)).remaining);
    expect(counts).toEqual([4, 3, 2, 1, 0, 0]);
    expect((await checkRateLimit(a, keyBucket(key), 5)).allowed).toBe(false);
  });

  it("Redis: two instances' stores count the same requests, also when hit at once", async () => {
    const [a, b] = [new RedisRateLimitStore(redisUrl), new RedisRateLimitStore(redisUrl)];
    const key = `test-${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => checkRateLimit(i % 2 ? a : b, keyBucket(key), 15)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(15);
    expect(new Set(results.map((r) => r.remaining)).has(0)).toBe(true);
    await Promise.all([a.close(), b.close()]);
  });
});

describe("the gate when Redis stops", () => {
  let keys: KeyFixtures;
  const listModels = publicRoutes.find((r) => r.name === "list_models")!;

  async function loadGate(env: Record<string, string>) {
    Object.assign(process.env, env);
    delete (globalThis as { keyportRateLimitStore?: unknown }).keyportRateLimitStore;
    vi.resetModules();
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
