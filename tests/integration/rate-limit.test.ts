import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { flushLog } from "@/lib/log";
import { createAccount } from "@/lib/auth/accounts";
import { createKey, rotateKey } from "@/lib/keys/lifecycle";
import { runtime } from "@/lib/runtime/runtime";
import { callApi, makeKeyFixtures, publicRoutes } from "../helpers/api-fixtures";
import { awayFromWindowEdge } from "../helpers/rate-window";

vi.hoisted(() => {
  process.env.RATE_LIMIT_DEV_PER_MINUTE = "5";
  process.env.RATE_LIMIT_PROD_PER_MINUTE = "8";
  // Unset: twice the per-key limit. Set here to see it named.
  process.env.RATE_LIMIT_ACCOUNT_DEV_PER_MINUTE = "12";
});

const listModels = publicRoutes.find((route) => route.name === "list_models")!;

describe("per-key rate limits", () => {
  it("count each key on its own, per environment, and answer 429 with Retry-After past the limit", async () => {
    await awayFromWindowEdge();
    const keys = await makeKeyFixtures(); // (the fixtures spend one request of the valid key)
    const remaining: string[] = [];
    for (let i = 0; i < 4; i++) {
      const result = await callApi(listModels, { headers: { Authorization: `Bearer ${keys.valid}` } });
      expect(result.status).toBe(200);
      expect(result.headers.get("ratelimit-limit")).toBe("5");
      remaining.push(result.headers.get("ratelimit-remaining") ?? "");
    }
    expect(remaining).toEqual(["3", "2", "1", "0"]);
    const limited = await callApi(listModels, { headers: { "X-API-Key": keys.valid } });
    expect(limited.status).toBe(429);
    expect(limited.json.error).toMatchObject({ code: "rate_limited", type: "rate_limit_error" });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("ratelimit-reset")).toBe(String(retryAfter));

    // The production key has its own counter and its own limit.
    const prod = await callApi(listModels, { headers: { Authorization: `Bearer ${keys.validProd}` } });
    expect(prod.status).toBe(200);
    expect(prod.headers.get("ratelimit-limit")).toBe("8");
  });
});

describe("the account-wide limit", () => {
  it("holds across a key rotated five times: grace keys add no capacity", async () => {
    const email = `rotator-${Date.now()}@example.com`;
    const user = await createAccount(email, "a long enough password");
    if (!user.ok) throw new Error(user.error);
    const actor = { userId: user.userId, ip: null, userAgent: null };
    let current = await createKey(actor, { label: "rotated", environment: "dev", expiresAt: null });
    const secrets = [current.secret];
    for (let i = 0; i < 5; i++) {
      current = await rotateKey(actor, current.key.id, "7d");
      secrets.push(current.secret);
    }
    // Six working keys, 5 requests each allowed by the per-key limit: 30. The account allows 12.
    const statuses: number[] = [];
    await awayFromWindowEdge();
    let refusal: Awaited<ReturnType<typeof callApi>> | undefined;
    for (const secret of secrets) {
      for (let i = 0; i < 5; i++) {
        const result = await callApi(listModels, { headers: { Authorization: `Bearer ${secret}` } });
        statuses.push(result.status);
        if (result.status === 429 && !refusal) refusal = result;
      }
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(12);
    expect(statuses.slice(0, 12).every((status) => status === 200)).toBe(true);
    expect(refusal!.json.error).toMatchObject({ code: "rate_limited" });
    expect(refusal!.json.error.message).toMatch(/this team's development keys together/);
    expect(refusal!.headers.get("ratelimit-limit")).toBe("12");
    expect(refusal!.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(refusal!.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("names in the RateLimit headers whichever limit has fewer requests left", async () => {
    const email = `headers-${Date.now()}@example.com`;
    const user = await createAccount(email, "a long enough password");
    if (!user.ok) throw new Error(user.error);
    const actor = { userId: user.userId, ip: null, userAgent: null };
    const key = async (label: string) =>
      (await createKey(actor, { label, environment: "dev", expiresAt: null })).secret;
    const [a, b, c] = [await key("a"), await key("b"), await key("c")];
    const call = async (secret: string) => {
      const result = await callApi(listModels, { headers: { Authorization: `Bearer ${secret}` } });
      return `${result.headers.get("ratelimit-limit")}/${result.headers.get("ratelimit-remaining")}`;
    };
    await awayFromWindowEdge();
    // 5 per key, 12 per account. At first the key's own limit is the tighter one.
    expect(await call(a)).toBe("5/4");
    for (let i = 0; i < 5; i++) await call(b);
    for (let i = 0; i < 4; i++) await call(a);
    // 10 of the account's 12 are used: a fresh key has 4 left, the account 1.
    expect(await call(c)).toBe("12/1");
  });
});

describe("last use", () => {
  it("is recorded at most once a minute per key", async () => {
    const keys = await makeKeyFixtures();
    const key = await db.apiKey.findFirstOrThrow({ where: { userId: keys.userId, label: "prod" } });
    expect(key.lastUsedAt).toBeNull();
    const call = () => callApi(listModels, { headers: { Authorization: `Bearer ${keys.validProd}` } });
    // The usage flush writes the last use (lib/usage/usage-sink.ts): flushed before each read.
    const lastUsedAt = async () => {
      await runtime().usage.flush();
      return (await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt;
    };
    // The clock moves; the key stays in this instance's cache throughout (its version never changes).
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      await call();
      const first = await lastUsedAt();
      expect(first).toBeInstanceOf(Date);
      vi.setSystemTime(first!.getTime() + 59_000);
      await call();
      expect(await lastUsedAt()).toEqual(first);
      vi.setSystemTime(first!.getTime() + 61_000);
      await call();
      expect((await lastUsedAt())!.getTime()).toBe(first!.getTime() + 61_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it("each request is logged as one line with its key id, never the key", async () => {
    const keys = await makeKeyFixtures();
    const lines: string[] = [];
    flushLog();
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      return true;
    });
    await callApi(listModels, { headers: { Authorization: `Bearer ${keys.validProd}` } });
    await callApi(listModels, { headers: { Authorization: `Bearer ${keys.unknown}` } });
    flushLog();
    spy.mockRestore();
    const entries = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((e) => e.event === "api.request");
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      route: "list_models",
      method: "GET",
      status: 200,
      key_id: expect.stringMatching(/^key_/),
    });
    expect(entries[1]).toMatchObject({ status: 401 });
    expect(typeof entries[0]!.duration_ms).toBe("number");
    expect(lines.join("\n")).not.toContain(keys.validProd);
    expect(lines.join("\n")).not.toContain(keys.unknown);
  });
});
