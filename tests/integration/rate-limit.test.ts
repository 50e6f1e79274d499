import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { callApi, makeKeyFixtures, publicRoutes } from "../helpers/api-fixtures";

vi.hoisted(() => {
  process.env.RATE_LIMIT_DEV_PER_MINUTE = "5";
  process.env.RATE_LIMIT_PROD_PER_MINUTE = "8";
});

const listModels = publicRoutes.find((route) => route.name === "list_models")!;

describe("per-key rate limits", () => {
  it("count each key on its own, per environment, and answer 429 with Retry-After past the limit", async () => {
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

describe("last use", () => {
  it("is recorded at most once a minute per key", async () => {
    const keys = await makeKeyFixtures();
    const key = await db.apiKey.findFirstOrThrow({ where: { userId: keys.userId, label: "prod" } });
    expect(key.lastUsedAt).toBeNull();
    await callApi(listModels, { headers: { Authorization: `Bearer ${keys.validProd}` } });
    const first = (await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt;
    expect(first).toBeInstanceOf(Date);
    await callApi(listModels, { headers: { Authorization: `Bearer ${keys.validProd}` } });
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt).toEqual(first);
    await db.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: new Date(Date.now() - 61_000) } });
    await callApi(listModels, { headers: { Authorization: `Bearer ${keys.validProd}` } });
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt!.getTime()).toBeGreaterThan(
      Date.now() - 5_000,
    );
  });

  it("each request is logged as one line with its key id, never the key", async () => {
    const keys = await makeKeyFixtures();
    const lines: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
    await callApi(listModels, { headers: { Authorization: `Bearer ${keys.validProd}` } });
    await callApi(listModels, { headers: { Authorization: `Bearer ${keys.unknown}` } });
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
