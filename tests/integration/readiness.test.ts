// GET /readyz (issue 36): 200 while this instance can serve; 503 saying why
// when the database does not answer within a second, a migration is not
// applied (a contract held back for the next deploy aside), Redis does not
// answer where it keeps the counters (said, but still 200, under
// RATE_LIMIT_FAIL_OPEN=1), or the instance is shutting down. No stack trace
// and no host name in the body.
import { mkdtempSync, mkdirSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { GET } from "@/app/readyz/route";
import { CONTRACT_MIGRATIONS } from "@/lib/db-contracts";
import { databaseTarget } from "@/lib/db-target";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { readiness, READY_CHECK_TIMEOUT_MS, type ReadinessProbe } from "@/lib/health";
import { RedisRateLimitStore } from "@/lib/public-api/rate-limit-stores";
import { createRuntime } from "@/lib/runtime/create-runtime";

const migrationsDir = databaseTarget(getEnv().DATABASE_URL, process.cwd()).migrationsPath;
const probe = (parts: Partial<ReadinessProbe> = {}): ReadinessProbe => ({
  db,
  migrationsDir,
  redis: null,
  redisMayFail: false,
  closing: false,
  ...parts,
});

/** A migrations folder holding the real ones and these. */
function folderWith(...names: string[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-migrations-"));
  const real = readdirSync(migrationsDir, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  for (const name of [...real.map((entry) => entry.name), ...names])
    mkdirSync(path.join(dir, name), { recursive: true });
  return dir;
}

async function answer(response: Response) {
  const body = (await response.json()) as {
    status: string;
    checks: Record<string, string>;
    error?: { code: string; message: string };
  };
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(JSON.stringify(body)).not.toMatch(/\n\s+at |127\.0\.0\.1|ECONNREFUSED|keyport@|postgres:/);
  return { http: response.status, ...body };
}

describe("GET /readyz", () => {
  it("answers 200 with each check while the instance can serve", async () => {
    // An instance that has reached its database once, as a running server's has (its maintenance and mail jobs
    // query it from the start): the first query also opens the connection and loads the client's query engine,
    // which took over the check's second on PostgreSQL in a CI run with four suites at once (503 "The database does
    // not answer.").
    await db.$queryRawUnsafe("SELECT 1");
    expect(await answer(await GET())).toEqual({
      http: 200,
      status: "ready",
      checks: { instance: "ok", database: "ok", migrations: "ok", redis: "not used" },
    });
  });

  it("answers 503 naming a migration the database has not applied, and not a contract held back", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const missing = await answer(await readiness(probe({ migrationsDir: folderWith("29990101000000_not_yet") })));
    expect(missing).toMatchObject({
      http: 503,
      checks: { migrations: "1 not applied" },
      error: {
        code: "service_unavailable",
        message: "Migrations not applied: 29990101000000_not_yet. Run npm run db:deploy.",
      },
    });
    // A database that has not yet applied the contract migration (held back until the next deploy) is ready.
    const held = CONTRACT_MIGRATIONS[0].contract;
    const withoutContract = {
      $queryRawUnsafe: async (sql: string) =>
        sql === "SELECT 1"
          ? []
          : readdirSync(migrationsDir)
              .filter((name) => name !== held)
              .map((name) => ({ migration_name: name })),
    } as unknown as ReadinessProbe["db"];
    expect(await answer(await readiness(probe({ db: withoutContract })))).toMatchObject({ http: 200 });
    errors.mockRestore();
  });

  it("answers 503 within about a second when the database hangs, and at once when it refuses", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const hanging = { $queryRawUnsafe: () => new Promise(() => {}) } as unknown as ReadinessProbe["db"];
    const started = Date.now();
    const hung = await answer(await readiness(probe({ db: hanging })));
    expect(Date.now() - started).toBeGreaterThanOrEqual(READY_CHECK_TIMEOUT_MS - 50);
    expect(Date.now() - started).toBeLessThan(READY_CHECK_TIMEOUT_MS + 1_500);
    expect(hung).toMatchObject({
      http: 503,
      checks: { database: "unreachable", migrations: "unknown" },
      error: { message: "The database does not answer." },
    });
    // Nothing listens on port 1 of this machine: the connection is refused.
    const down = createRuntime({ ...getEnv(), DATABASE_URL: "postgresql://keyport@127.0.0.1:1/keyport" });
    expect(await answer(await readiness(probe({ db: down.db })))).toMatchObject({
      http: 503,
      checks: { database: "unreachable" },
    });
    const logged = errors.mock.calls.map((call) => JSON.parse(String(call[0])) as { event: string });
    expect(logged.map((line) => line.event)).toContain("readyz.database_unreachable");
    errors.mockRestore();
  });

  it("asks Redis where it keeps the counters: unreachable is 503, or 200 said under RATE_LIMIT_FAIL_OPEN", async () => {
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    // The real Redis of this machine answers; nothing listens on port 1.
    const redis = new RedisRateLimitStore("redis://127.0.0.1:6379");
    const away = new RedisRateLimitStore("redis://127.0.0.1:1");
    expect(await answer(await readiness(probe({ redis })))).toMatchObject({ http: 200, checks: { redis: "ok" } });
    expect(await answer(await readiness(probe({ redis: away })))).toMatchObject({
      http: 503,
      checks: { redis: "unreachable" },
      error: { message: "Redis does not answer." },
    });
    expect(await answer(await readiness(probe({ redis: away, redisMayFail: true })))).toMatchObject({
      http: 200,
      checks: { redis: "unreachable" },
    });
    // The answer does not say the gate now runs on without counting: that is the operator's to know, in the log.
    const failOpen = await readiness(probe({ redis: away, redisMayFail: true }));
    expect(await failOpen.text()).not.toMatch(/FAIL_OPEN|without it/i);
    const logged = warnings.mock.calls.map((call) => JSON.parse(String(call[0])) as Record<string, unknown>);
    expect(logged.filter((line) => line.event === "readyz.redis_unreachable").at(-1)).toMatchObject({
      fail_open: true,
    });
    warnings.mockRestore();
  });

  it("answers 503 once the instance is shutting down", async () => {
    expect(await answer(await readiness(probe({ closing: true })))).toMatchObject({
      http: 503,
      checks: { instance: "shutting down" },
      error: { message: "This instance is shutting down." },
    });
    // The runtime says it from the start of its close().
    const instance = createRuntime(getEnv());
    expect(instance.closing).toBe(false);
    const closed = instance.close();
    expect(instance.closing).toBe(true);
    await closed;
  });
});
