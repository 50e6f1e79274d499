import { afterEach, describe, expect, it, vi } from "vitest";
import { UNRESTRICTED } from "@/lib/keys/restrictions";
import type { VerifiedKey } from "@/lib/keys/verify";
import { countRequest } from "@/lib/public-api/count-request";
import {
  checkRateLimitPair,
  MemoryRateLimitStore,
  WINDOW_MS,
  windowEnd,
  type RateLimitStore,
} from "@/lib/public-api/rate-limit";

vi.hoisted(() => {
  process.env.AUTH_SECRET ??= "unit-tests-secret-0123456789abcdef";
  process.env.ENCRYPTION_KEY ??= Buffer.alloc(32, 7).toString("base64");
  process.env.RATE_LIMIT_DEV_PER_MINUTE = "60";
  process.env.RATE_LIMIT_ACCOUNT_DEV_PER_MINUTE = "120";
});

const pair = { key: "rl:k", keyLimit: 2, account: "rla:u:dev" };
// 10 seconds into a window.
const now = 1_800_000_000_000 - 50_000;

/** A development key with its own limit of `rateLimit` requests a minute (the environment allows 60, its account 120). */
function key(id: string, rateLimit: number | null, userId = "user"): VerifiedKey {
  return {
    id,
    publicId: `key_${id}`,
    teamId: `team_${userId}`,
    userId,
    environment: "dev",
    lastUsedAt: null,
    restrictions: { ...UNRESTRICTED, rateLimit },
    rateLimitByOperator: false,
  };
}

describe("the in-process store", () => {
  it("counts the account only while the key's count is within the key's limit", async () => {
    const store = new MemoryRateLimitStore();
    const counts = [];
    for (let i = 0; i < 4; i++) counts.push(await store.hitPair(pair, WINDOW_MS, now));
    const end = windowEnd(now, WINDOW_MS);
    expect(counts).toEqual([
      { key: { count: 1, windowEndsAt: end }, account: { count: 1, windowEndsAt: end } },
      { key: { count: 2, windowEndsAt: end }, account: { count: 2, windowEndsAt: end } },
      { key: { count: 3, windowEndsAt: end }, account: null },
      { key: { count: 4, windowEndsAt: end }, account: null },
    ]);
    // Another key of the account finds the two requests the first key's limit allowed, not four.
    expect((await store.hitPair({ ...pair, key: "rl:other" }, WINDOW_MS, now)).account?.count).toBe(3);
  });

  it("starts both counters afresh in the next fixed window", async () => {
    const store = new MemoryRateLimitStore();
    for (let i = 0; i < 3; i++) await store.hitPair(pair, WINDOW_MS, now);
    const next = windowEnd(now, WINDOW_MS);
    expect(await store.hitPair(pair, WINDOW_MS, next)).toEqual({
      key: { count: 1, windowEndsAt: next + WINDOW_MS },
      account: { count: 1, windowEndsAt: next + WINDOW_MS },
    });
  });

  it("gives each of many requests at once its own count", async () => {
    const store = new MemoryRateLimitStore();
    const counts = await Promise.all(Array.from({ length: 5 }, () => store.hitPair(pair, WINDOW_MS, now)));
    expect(counts.map((c) => c.key.count)).toEqual([1, 2, 3, 4, 5]);
    expect(counts.map((c) => c.account?.count ?? null)).toEqual([1, 2, null, null, null]);
  });
});

describe("checkRateLimitPair", () => {
  it("reads both counts against their limits, and no account result once the key refuses", async () => {
    const store = new MemoryRateLimitStore();
    const buckets = { ...pair, accountLimit: 1 };
    expect(await checkRateLimitPair(store, buckets, now)).toEqual({
      key: { limit: 2, remaining: 1, resetSeconds: 50, allowed: true },
      account: { limit: 1, remaining: 0, resetSeconds: 50, allowed: true },
    });
    expect((await checkRateLimitPair(store, buckets, now + 200)).account).toMatchObject({ allowed: false });
    expect(await checkRateLimitPair(store, buckets, now + 49_999)).toEqual({
      key: { limit: 2, remaining: 0, resetSeconds: 1, allowed: false },
      account: null,
    });
  });
});

describe("countRequest", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it("asks the store once per request, and names the limit that refused or has fewer requests left", async () => {
    const store = new MemoryRateLimitStore();
    const hitPair = vi.spyOn(store, "hitPair");
    const tight = key("tight", 2);
    const rates = [];
    for (let i = 0; i < 3; i++) rates.push(await countRequest(tight, store));
    expect(rates.map((r) => [r?.scope, r?.remaining, r?.allowed])).toEqual([
      ["key", 1, true],
      ["key", 0, true],
      ["key", 0, false],
    ]);
    expect(hitPair).toHaveBeenCalledTimes(3);

    // The account (120 a minute) has 118 left: the refused request did not count.
    expect(await countRequest(key("loose", null), store)).toMatchObject({ scope: "key", limit: 60, remaining: 59 });
    for (let i = 0; i < 116; i++) await countRequest(key(`k${i}`, null), store);
    expect(await countRequest(key("last", null), store)).toMatchObject({ scope: "account", remaining: 0 });
    expect(await countRequest(key("over", null), store)).toMatchObject({ scope: "account", allowed: false });
  });

  it("answers 503 when the store is down, or lets the request through with RATE_LIMIT_FAIL_OPEN=1", async () => {
    const down: RateLimitStore = { hitPair: () => Promise.reject(new Error("connection refused")) };
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    await expect(countRequest(key("k", null), down)).rejects.toMatchObject({ code: "service_unavailable" });
    errors.mockRestore();

    vi.stubEnv("RATE_LIMIT_FAIL_OPEN", "1");
    vi.resetModules();
    const open = await import("@/lib/public-api/count-request");
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(await open.countRequest(key("k", null), down)).toBeUndefined();
    expect(warnings.mock.calls.some(([line]) => String(line).includes("api.rate_limit_store_down_fail_open"))).toBe(
      true,
    );
    warnings.mockRestore();
  });
});
