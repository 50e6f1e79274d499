// Uses after a revocation count every request the key got, however many the
// request log kept: the log keeps 120 rows per key and minute
// (lib/usage/buffer.ts), so a flood just before a revocation used to fill the
// minute and hide the uses after it, from key:usage's after_revocation and from
// the dashboard's "used N times after it was revoked" alike. Both read the
// hourly counts by error code now (lib/usage/after-end.ts). The events go
// through the buffer and the app's writer as the gate's do.
import { describe, expect, it } from "vitest";
import { afterEndText } from "@/components/usage/after-end-notice";
import { absoluteTime } from "@/lib/format-time";
import { db } from "@/lib/db";
import { createKey, revokeKey } from "@/lib/keys/lifecycle";
import { getKey } from "@/lib/keys/queries";
import { routeScopes } from "@/lib/public-api/routes";
import { runtime } from "@/lib/runtime/runtime";
import { DEFAULT_LOG_PER_KEY_PER_MINUTE } from "@/lib/usage/buffer";
import type { UsageEvent } from "@/lib/usage/event";
import { keySignals, listSignals } from "@/lib/usage/signals";
import { createUsageBuffer } from "@/lib/usage/usage-sink";
import { adminInProcess as admin } from "../helpers/admin-in-process";
import { bareAccount } from "../helpers/bare-account";
import { personalTeamId } from "../helpers/teams";

/**
 * A key flooded past the log's cap in one minute (`DEFAULT_LOG_PER_KEY_PER_MINUTE` answered, 3 rate-limited), then
 * revoked and tried `inFloodedMinute` times in that minute and `later` times in the next.
 */
async function floodedThenRevoked(name: string, inFloodedMinute: number, later: number) {
  const user = await bareAccount(`${name}-${Date.now()}@example.com`);
  const actor = { userId: user.id, ip: null, userAgent: "test" };
  const restrictions = { scopes: "all", allowedIps: null, rateLimit: null } as const;
  const { key } = await createKey(actor, { label: "flooded", environment: "dev", expiresAt: null, restrictions });
  const row = await db.apiKey.findUniqueOrThrow({ where: { publicId: key.id }, select: { id: true } });

  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  let n = 0;
  const event = (status: number, errorCode: string | null, at: number, ip = "203.0.113.8"): UsageEvent => ({
    requestId: `${name}-${minute}-${n++}`,
    keyId: row.id,
    userId: user.id,
    route: "list_models",
    status,
    errorCode,
    latencyMs: 2,
    ip,
    userAgent: "flood/1.0",
    createdAt: new Date(at + n),
  });
  const buffer = createUsageBuffer(runtime().usageWriter);
  for (let i = 0; i < DEFAULT_LOG_PER_KEY_PER_MINUTE; i++) buffer.record(event(200, null, minute));
  // Past the cap: the client ignores its 429s, then the key is revoked and it carries on.
  for (let i = 0; i < 3; i++) buffer.record(event(429, "rate_limited", minute));
  await revokeKey(actor, key.id, "test");
  for (let i = 0; i < inFloodedMinute; i++) buffer.record(event(401, "revoked_api_key", minute));
  for (let i = 0; i < later; i++) buffer.record(event(401, "revoked_api_key", minute + 60_000, "198.51.100.77"));
  await buffer.close();
  return { user, key, row, minute };
}

describe("uses after a revocation, after a flood", () => {
  it("key:usage counts every use after the revocation, though the request log's minute was full", async () => {
    const { key, row } = await floodedThenRevoked("after-revocation", 4, 0);
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

  it("the dashboard's key page and list say the same number as key:usage, and the last use the log kept", async () => {
    const { user, key } = await floodedThenRevoked("dashboard-after-revocation", 4, 2);
    const teamId = await personalTeamId(user.id);
    const view = await getKey(teamId, key.id);
    const page = await keySignals(teamId, view!, routeScopes());
    const list = await listSignals(teamId, [view!]);
    const cli = JSON.parse((await admin(["key:usage", "--id", key.id])).stdout) as { after_revocation: number };

    expect(cli.after_revocation).toBe(6);
    expect(page.afterEnd).toMatchObject({ count: 6, lastIp: "198.51.100.77" });
    expect(list.afterEnd.get(key.id)).toEqual(page.afterEnd);
    // The last use is the next minute's last, the newest row the log kept.
    const newest = await db.usageEvent.findFirst({ where: { ip: "198.51.100.77" }, orderBy: { createdAt: "desc" } });
    expect(page.afterEnd!.lastAt).toEqual(newest!.createdAt);
  });

  it("counts uses the log kept none of, and then names their hour, not an address", async () => {
    const { user, key, minute } = await floodedThenRevoked("unlogged-after-revocation", 5, 0);
    const teamId = await personalTeamId(user.id);
    const view = (await getKey(teamId, key.id))!;
    const page = await keySignals(teamId, view, routeScopes());
    const cli = JSON.parse((await admin(["key:usage", "--id", key.id])).stdout) as { after_revocation: number };
    expect(cli.after_revocation).toBe(5);
    const hour = new Date(Math.floor(minute / 3_600_000) * 3_600_000);
    expect(page.afterEnd).toEqual({ count: 5, lastIp: null, lastAt: hour });
    expect(afterEndText(view, page.afterEnd!)).toBe(
      `Used 5 times after it was revoked, last in the hour from ${absoluteTime(hour)}`,
    );
  });
});
