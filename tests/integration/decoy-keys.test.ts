// Decoy keys through the gate: answered exactly as an unknown key (status,
// headers and body, apart from the request id), with one alert in the
// activity log per attempt, written after the answer.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PEER_IP_HEADER } from "@/lib/auth/client-ip";
import { db } from "@/lib/db";
import { generateApiKey } from "@/lib/keys/format";
import { createKey, DECOY_LEAK_REFUSED, reportLeak, revokeKey, revokeLeaked, rotateKey } from "@/lib/keys/lifecycle";
import { UsageBuffer } from "@/lib/usage/buffer";
import { testGate } from "../helpers/test-gate";

async function newOwner() {
  const user = await db.user.create({ data: { email: `decoy-${randomUUID()}@example.com` } });
  return { userId: user.id, ip: null, userAgent: null };
}

function call(path: string, key: string) {
  return new Request(`http://localhost${path}`, {
    headers: { [PEER_IP_HEADER]: "198.51.100.23", "user-agent": "curl/8.5.0", authorization: `Bearer ${key}` },
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

const alerts = (userId: string) => db.auditEvent.findMany({ where: { userId, action: "key.decoy_used" } });

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

  it("raises exactly one activity entry per attempt, with the IP, browser and route, and one email an hour", async () => {
    const owner = await newOwner();
    const decoy = await createKey(owner, { label: "config file", environment: "dev", expiresAt: null, decoy: true });
    const gate = testGate();
    for (let i = 0; i < 3; i++) expect((await gate(call("/api/v1/models", decoy.secret))).status).toBe(401);
    // Written after the answer, off the request path.
    await expect.poll(async () => (await alerts(owner.userId)).length).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const rows = await alerts(owner.userId);
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({ keyId: decoy.key.id, ip: "198.51.100.23", userAgent: "curl/8.5.0" });
      expect(JSON.parse(row.details!)).toEqual({ route: "list_models" });
    }
    expect(await db.mailMessage.count({ where: { kind: "decoy_key_used", subject: decoy.key.id } })).toBe(1);
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
    expect(await db.auditEvent.count({ where: { userId: owner.userId, action: "key.leaked" } })).toBe(0);
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
