// key:usage's after_revocation counts every request a key got after it was
// revoked, however many the request log kept: the log keeps 120 rows per key
// and minute (lib/usage/buffer.ts), so a flood just before a revocation used
// to fill the minute and hide the uses after it. The events go through the
// buffer and the app's writer as the gate's do.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createKey, revokeKey } from "@/lib/keys/lifecycle";
import { runtime } from "@/lib/runtime/runtime";
import { DEFAULT_LOG_PER_KEY_PER_MINUTE } from "@/lib/usage/buffer";
import type { UsageEvent } from "@/lib/usage/event";
import { createUsageBuffer } from "@/lib/usage/usage-sink";
import { adminInProcess as admin } from "../helpers/admin-in-process";
import { bareAccount } from "../helpers/bare-account";

describe("key:usage after a flood", () => {
  it("counts every use after the revocation, though the request log's minute was full", async () => {
    const email = `after-revocation-${Date.now()}@example.com`;
    const user = await bareAccount(email);
    const actor = { userId: user.id, ip: null, userAgent: "test" };
    const restrictions = { scopes: "all", allowedIps: null, rateLimit: null } as const;
    const { key } = await createKey(actor, { label: "flooded", environment: "dev", expiresAt: null, restrictions });
    const row = await db.apiKey.findUniqueOrThrow({ where: { publicId: key.id }, select: { id: true } });

    // All in one minute: the log's cap for it is used up by the flood.
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    let n = 0;
    const event = (status: number, errorCode: string | null): UsageEvent => ({
      requestId: `after-revocation-${minute}-${n}`,
      keyId: row.id,
      userId: user.id,
      route: "list_models",
      status,
      errorCode,
      latencyMs: 2,
      ip: "203.0.113.8",
      userAgent: "flood/1.0",
      createdAt: new Date(minute + n++),
    });
    const buffer = createUsageBuffer(runtime().usageWriter);
    for (let i = 0; i < DEFAULT_LOG_PER_KEY_PER_MINUTE; i++) buffer.record(event(200, null));
    // Past the cap: the client ignores its 429s, then the key is revoked and it carries on.
    for (let i = 0; i < 3; i++) buffer.record(event(429, "rate_limited"));
    await revokeKey(actor, key.id, "test");
    for (let i = 0; i < 4; i++) buffer.record(event(401, "revoked_api_key"));
    await buffer.close();

    const result = await admin(["key:usage", "--id", key.id]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      total: DEFAULT_LOG_PER_KEY_PER_MINUTE + 7,
      by_status_class: { "2xx": DEFAULT_LOG_PER_KEY_PER_MINUTE, "4xx": 7, "5xx": 0 },
      after_revocation: 4,
    });
    // The request log itself kept only the minute's first 120.
    expect(await db.usageEvent.count({ where: { keyId: row.id } })).toBe(DEFAULT_LOG_PER_KEY_PER_MINUTE);
  });
});
