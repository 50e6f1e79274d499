// Decoy keys through the gate: answered exactly as an unknown key (status,
// headers and body, apart from the request id), with one alert in the
// activity log per decoy and hour, counting every attempt, written after
// the answer.
import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { PEER_IP_HEADER } from "@/lib/auth/client-ip";
import { checkStoredTeamChains } from "@/lib/audit-chain-store";
import { db } from "@/lib/db";
import { recordDecoyUses } from "@/lib/keys/decoy";
import { generateApiKey } from "@/lib/keys/format";
import { createKey, DECOY_LEAK_REFUSED, reportLeak, revokeKey, revokeLeaked, rotateKey } from "@/lib/keys/lifecycle";
import { decoyUses } from "@/lib/keys/queries";
import { UsageBuffer } from "@/lib/usage/buffer";
import { testGate } from "../helpers/test-gate";
import { bareAccount } from "../helpers/bare-account";
import { personalTeamId } from "../helpers/teams";

async function newOwner() {
  const user = await bareAccount(`decoy.${randomUUID()}@example.com`);
  return { userId: user.id, ip: null, userAgent: null };
}

function call(path: string, key: string, ip = "198.51.100.23") {
  return new Request(`http://localhost${path}`, {
    headers: { [PEER_IP_HEADER]: ip, "user-agent": "curl/8.5.0", authorization: `Bearer ${key}` },
  });
}

/** Status, headers and body, with the request id (different on every answer) taken out. */
async function answer(response: Response) {
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== "x-request-id"));
  const body = (await response.json()) as { error: Record<string, unknown> };
  expect(body.error.request_id).toMatch(/^req_/);
  delete body.error.request_id;
  return { status: response.status, headers, body };
}

const alerts = (userId: string) => db.teamAuditEvent.findMany({ where: { actorId: userId, action: "key.decoy_used" } });
const sum = (rows: { count: number }[]) => rows.reduce((total, row) => total + row.count, 0);

describe("a decoy key", () => {
  it("is answered exactly as an unknown key, on every route, before any restriction or rate-limit header", async () => {
    const owner = await newOwner();
    const decoy = await createKey(owner, {
      label: "ci secret",
      environment: "prod",
      expiresAt: null,
      decoy: true,
      restrictions: { scopes: ["catalog:read"], allowedIps: ["192.0.2.0/24"], rateLimit: 1 },
    });
    expect(decoy.key.decoy).toBe(true);
    const buffer = new UsageBuffer({ write: async () => {}, intervalMs: 60_000 });
    const gate = testGate({ usage: buffer });
    for (const path of ["/api/v1/models", "/api/v1/media_models", "/api/v1/generations/gen_x"]) {
      const unknown = await answer(await gate(call(path, generateApiKey("prod"))));
      const refused = await answer(await gate(call(path, decoy.secret)));
      expect(refused).toEqual(unknown);
      expect(refused.status).toBe(401);
      expect(Object.keys(refused.headers).filter((name) => name.startsWith("ratelimit"))).toEqual([]);
    }
    // Nothing recorded as usage: an unknown key has none.
    expect(buffer.snapshot().recorded).toBe(0);
    await buffer.close();
  });

  it("raises one activity entry an hour for a flood, counting every attempt, and one email", async () => {
    const owner = await newOwner();
    const decoy = await createKey(owner, { label: "config file", environment: "dev", expiresAt: null, decoy: true });
    const gate = testGate();
    const warnings = vi.spyOn(console, "warn");
    // Each answered at once; they used to add one activity entry each (a flood filled the owner's log).
    // The first from one address, the rest from five others.
    for (let i = 0; i < 50; i++) {
      const ip = i === 0 ? "198.51.100.23" : `203.0.113.${i % 5}`;
      expect((await gate(call("/api/v1/models", decoy.secret, ip))).status).toBe(401);
    }
    // Written after the answers, off the request path.
    await expect.poll(async () => sum(await alerts(owner.userId))).toBe(50);
    // The entry names the first use; the log names every address, so a throwaway first address hides none.
    const logged = warnings.mock.calls
      .filter(([line]) => String(line).startsWith("{"))
      .map(([line]) => JSON.parse(String(line)) as { event: string; key_id?: string; ips?: string[] })
      .filter((line) => line.event === "key.decoy_used" && line.key_id === decoy.key.id);
    expect(new Set(logged.flatMap((line) => line.ips ?? []))).toEqual(
      new Set(["198.51.100.23", "203.0.113.0", "203.0.113.1", "203.0.113.2", "203.0.113.3", "203.0.113.4"]),
    );
    warnings.mockRestore();
    const rows = await alerts(owner.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ keyId: decoy.key.id, ip: "198.51.100.23", userAgent: "curl/8.5.0", count: 50 });
    expect(JSON.parse(rows[0]!.details!)).toEqual({ route: "list_models" });
    expect(await db.mailMessage.count({ where: { kind: "decoy_key_used", subject: decoy.key.id } })).toBe(1);
    // The dashboard counts them all.
    expect((await decoyUses(await personalTeamId(owner.userId), [decoy.key.id])).get(decoy.key.id)).toMatchObject({
      count: 50,
    });
    // The tally is outside the hash: the chain still verifies.
    const teamId = await personalTeamId(owner.userId);
    expect(await checkStoredTeamChains(db, { teamId })).toMatchObject([{ rows: 2, problem: null }]);
  });

  it("keeps one entry per decoy and hour when writers race, and starts a new one in the next hour", async () => {
    const owner = await newOwner();
    const decoy = await createKey(owner, { label: "backup", environment: "prod", expiresAt: null, decoy: true });
    const other = await createKey(owner, { label: "ci", environment: "prod", expiresAt: null, decoy: true });
    const found = async (publicId: string) => {
      const row = await db.apiKey.findUniqueOrThrow({ where: { publicId } });
      return { id: row.id, publicId, userId: owner.userId };
    };
    const [key, otherKey] = [await found(decoy.key.id), await found(other.key.id)];
    const use = { ip: "203.0.113.7", userAgent: "scanner", route: "list_models" };
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    const at = (minutes: number) => new Date(hour.getTime() + minutes * 60_000);
    // Ten instances' batches at once, each with two uses of one decoy in this hour and one of another.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        recordDecoyUses([
          { key, use, at: at(0), count: 1 },
          { key, use, at: at(i % 50), count: 2 },
          { key: otherKey, use, at: at(1), count: 1 },
        ]),
      ),
    );
    // The hour before: an entry of its own, and its email.
    await recordDecoyUses([{ key, use, at: at(-30), count: 4 }]);
    const rows = await alerts(owner.userId);
    const byKey = (publicId: string) => rows.filter((row) => row.keyId === publicId).map((row) => row.count);
    expect(byKey(decoy.key.id).sort()).toEqual([30, 4]);
    expect(byKey(other.key.id)).toEqual([10]);
    expect(await db.mailMessage.count({ where: { kind: "decoy_key_used", subject: decoy.key.id } })).toBe(2);
    expect(await checkStoredTeamChains(db, { teamId: await personalTeamId(owner.userId) })).toMatchObject([
      { problem: null },
    ]);
  });

  it("keeps no expiry, access or owner but its maker, whatever the form sent (attack review)", async () => {
    const owner = await newOwner();
    const { key } = await createKey(owner, {
      label: "trap with extras",
      environment: "prod",
      expiresAt: new Date(Date.now() + 24 * 3600_000),
      decoy: true,
      restrictions: { scopes: ["catalog:read"], allowedIps: ["10.0.0.0/8"], rateLimit: 5 },
    });
    const row = await db.apiKey.findUniqueOrThrow({ where: { publicId: key.id } });
    expect(row).toMatchObject({
      decoy: true,
      expiresAt: null,
      scopes: "all",
      allowedIps: null,
      rateLimit: null,
      serviceAccountId: null,
    });
    // Control: the same fields on a key that is not a decoy are kept.
    const { key: real } = await createKey(owner, {
      label: "real with extras",
      environment: "prod",
      expiresAt: new Date(Date.now() + 24 * 3600_000),
      restrictions: { scopes: ["catalog:read"], allowedIps: ["10.0.0.0/8"], rateLimit: 5 },
    });
    expect(await db.apiKey.findUniqueOrThrow({ where: { publicId: real.id } })).toMatchObject({
      allowedIps: "10.0.0.0/8",
      rateLimit: 5,
    });
  });

  it("cannot be rotated or reported leaked, which would disarm it, and stays a decoy when revoked", async () => {
    const owner = await newOwner();
    const decoy = await createKey(owner, { label: "old decoy", environment: "prod", expiresAt: null, decoy: true });
    const before = await db.apiKey.findUniqueOrThrow({ where: { publicId: decoy.key.id } });
    const mails = () => db.mailMessage.count({ where: { userId: owner.userId } });
    const mailsBefore = await mails();
    await expect(rotateKey(owner, decoy.key.id, "now")).rejects.toThrow(/decoy key is never used/);
    // "This key leaked" used to revoke it (no replacement, but the decoy switched off): refused like rotation.
    await expect(reportLeak(owner, decoy.key.id)).rejects.toThrow(DECOY_LEAK_REFUSED);
    await expect(revokeLeaked(owner, decoy.key.id, { source: "dashboard", url: null, replace: false })).rejects.toThrow(
      DECOY_LEAK_REFUSED,
    );
    // Nothing changed: no revocation, no replacement, no activity entry, no mail.
    const after = await db.apiKey.findUniqueOrThrow({ where: { publicId: decoy.key.id } });
    expect(after).toMatchObject({ revokedAt: null, revokedReason: null, successorId: null, version: before.version });
    expect(await db.apiKey.count({ where: { userId: owner.userId } })).toBe(1);
    expect(await db.teamAuditEvent.count({ where: { actorId: owner.userId, action: "key.leaked" } })).toBe(0);
    expect(await mails()).toBe(mailsBefore);
    // Still armed: a use raises its alert.
    await testGate()(call("/api/v1/models", decoy.secret));
    await expect.poll(async () => (await alerts(owner.userId)).length).toBe(1);
    const other = await createKey(owner, { label: "another", environment: "dev", expiresAt: null, decoy: true });
    await revokeKey(owner, other.key.id, null);
    const gate = testGate();
    const unknown = await answer(await gate(call("/api/v1/models", generateApiKey("dev"))));
    expect(await answer(await gate(call("/api/v1/models", other.secret)))).toEqual(unknown);
  });
});
