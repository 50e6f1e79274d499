// What usage says about a key beside its charts: use after it stopped working,
// how far a rotation has got, and the scopes it really needed. Requests go
// through a real gate and the real batch writer.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createAccount } from "@/lib/auth/accounts";
import { PEER_IP_HEADER } from "@/lib/auth/client-ip";
import { createKey, revokeKey, rotateKey } from "@/lib/keys/lifecycle";
import type { KeyRestrictions } from "@/lib/keys/restrictions";
import { getKey } from "@/lib/keys/queries";
import { testGate } from "../helpers/test-gate";
import { UsageBuffer } from "@/lib/usage/buffer";
import { keySignals, rotationProgress, usedScopes, triedAfterEnd } from "@/lib/usage/signals";
import { routeScopes } from "@/lib/public-api/routes";
import { writeUsage } from "../helpers/usage-writer";
import { personalTeamId } from "../helpers/teams";

vi.hoisted(() => {
  process.env.RATE_LIMIT_DEV_PER_MINUTE = "100000";
  process.env.RATE_LIMIT_ACCOUNT_DEV_PER_MINUTE = "10000000";
});

let actor: { userId: string; ip: null; userAgent: null };
let stranger: string;
const buffer = new UsageBuffer({ write: (events) => writeUsage(events), intervalMs: 60_000 });
const gate = testGate({ usage: buffer });

beforeAll(async () => {
  const user = await createAccount(`signals-${Date.now()}@example.com`, "a long enough password");
  const other = await createAccount(`signals-other-${Date.now()}@example.com`, "a long enough password");
  if (!user.ok || !other.ok) throw new Error("sign-up failed");
  actor = { userId: user.userId, ip: null, userAgent: null };
  // The other account's personal team: the keys of this one are not its.
  stranger = await personalTeamId(other.userId);
});

const newKey = (restrictions: Partial<KeyRestrictions> = {}, label = "signals") =>
  createKey(actor, {
    label,
    environment: "dev",
    expiresAt: null,
    restrictions: { scopes: "all", allowedIps: null, rateLimit: null, ...restrictions },
  });

async function call(path: string, key: string, ip = "203.0.113.9", ua = "signals-test/1.0", body?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, [PEER_IP_HEADER]: ip, "user-agent": ua };
  if (body) headers["content-type"] = "application/json";
  const response = await gate(new Request(`http://localhost${path}`, { method: body ? "POST" : "GET", headers, body }));
  return response.status;
}

describe("use after a key stopped working", () => {
  it("counts the refused requests of a revoked key, with the last time and address; another user sees nothing", async () => {
    const issued = await newKey({}, "revoked then tried");
    expect(await call("/api/v1/models", issued.secret)).toBe(200);
    await revokeKey(actor, issued.key.id, null);
    for (const ip of ["198.51.100.1", "198.51.100.2", "198.51.100.3"]) {
      expect(await call("/api/v1/models", issued.secret, ip)).toBe(401);
    }
    await buffer.flush();
    const found = (await triedAfterEnd(await personalTeamId(actor.userId), [issued.key.id])).get(issued.key.id);
    expect(found).toMatchObject({ count: 3, lastIp: "198.51.100.3" });
    expect((await triedAfterEnd(stranger, [issued.key.id])).size).toBe(0);
  });
});

describe("rotation progress", () => {
  it("measures the old key's share of the last hour and who still sends it", async () => {
    const old = await newKey({}, "rotating");
    const rotated = await rotateKey(actor, old.key.id, "1h");
    for (let i = 0; i < 3; i++) await call("/api/v1/models", old.secret, "198.51.100.20", "legacy-worker/2.1");
    await call("/api/v1/models", rotated.secret, "198.51.100.30", "new-worker/3.0");
    await buffer.flush();
    const progress = await rotationProgress(await personalTeamId(actor.userId), old.key.id, rotated.key.id);
    expect(progress).toMatchObject({ oldRequests: 3, newRequests: 1, oldShare: 0.75 });
    expect(progress?.senders).toEqual([{ ip: "198.51.100.20", userAgent: "legacy-worker/2.1", count: 3 }]);
    expect(await rotationProgress(stranger, old.key.id, rotated.key.id)).toBeNull();

    const page = await getKey(await personalTeamId(actor.userId), old.key.id);
    const signals = await keySignals(await personalTeamId(actor.userId), page!, routeScopes());
    expect(signals.rotation?.oldShare).toBe(0.75);
  });
});

describe("scopes from real use", () => {
  it("suggests the scopes successful requests needed, and nothing for a key already that narrow", async () => {
    const wide = await newKey({}, "wide");
    await call("/api/v1/models", wide.secret);
    await call("/api/v1/apps", wide.secret);
    // A refused request says nothing about what the key needs.
    await call("/api/v1/chat/completions", wide.secret, undefined, undefined, "{");
    await buffer.flush();
    expect(await usedScopes(await personalTeamId(actor.userId), wide.key.id, routeScopes())).toEqual(["catalog:read"]);
    const wideSignals = await keySignals(
      await personalTeamId(actor.userId),
      (await getKey(await personalTeamId(actor.userId), wide.key.id))!,
      routeScopes(),
    );
    expect(wideSignals.suggestedScopes).toEqual(["catalog:read"]);

    const narrow = await newKey({ scopes: ["catalog:read"] }, "narrow");
    await call("/api/v1/models", narrow.secret);
    await buffer.flush();
    expect(
      (
        await keySignals(
          await personalTeamId(actor.userId),
          (await getKey(await personalTeamId(actor.userId), narrow.key.id))!,
          routeScopes(),
        )
      ).suggestedScopes,
    ).toBeNull();
    expect(await usedScopes(stranger, wide.key.id, routeScopes())).toBeNull();
  });
});
