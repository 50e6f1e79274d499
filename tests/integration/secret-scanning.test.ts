// GitHub's secret-scanning partner endpoint, called as GitHub calls it: a JSON
// array of matches, signed with ECDSA P-256 over the raw body by a key this
// test makes and configures itself.
import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { checkStoredChains } from "@/lib/audit-chain-store";
import { db } from "@/lib/db";
import { generateApiKey } from "@/lib/keys/format";
import { cachedKeyLookup } from "@/lib/keys/key-cache";
import { createKey } from "@/lib/keys/lifecycle";
import { tokenHash } from "@/lib/keys/leak-reports";
import { verifyApiKey } from "@/lib/keys/verify";
import { runtime } from "@/lib/runtime/runtime";
import { bareAccount } from "../helpers/bare-account";

// getEnv() caches; here each call reads process.env, so the route sees the keys set in beforeAll.
vi.mock("@/lib/env", async () => {
  const { parseEnv } = await vi.importActual<typeof import("@/lib/env-schema")>("@/lib/env-schema");
  return { getEnv: () => parseEnv(process.env) };
});

const { POST } = await import("@/app/webhooks/secret-scanning/route");

// GitHub's identifiers are 64 hex digits; any string works, and this one reads as what it is.
const IDENTIFIER = "keyport-test-signing-key-1";
let signingKey: KeyObject;
let otherKey: KeyObject;
let counter = 0;

function keyPair() {
  return generateKeyPairSync("ec", { namedCurve: "prime256v1" });
}

beforeAll(() => {
  const pair = keyPair();
  signingKey = pair.privateKey;
  otherKey = keyPair().privateKey;
  process.env.SECRET_SCANNING_PUBLIC_KEYS = JSON.stringify({
    public_keys: [
      { key_identifier: IDENTIFIER, key: pair.publicKey.export({ type: "spki", format: "pem" }), is_current: true },
    ],
  });
});

afterAll(() => {
  delete process.env.SECRET_SCANNING_PUBLIC_KEYS;
});

/** Posts a report: the body exactly as given, signed (by default) with the configured key. */
function report(body: string, options: { key?: KeyObject; identifier?: string; signature?: string | null } = {}) {
  const signature =
    options.signature === undefined
      ? sign("sha256", Buffer.from(body), options.key ?? signingKey).toString("base64")
      : options.signature;
  const headers = new Headers({ "content-type": "application/json" });
  headers.set("github-public-key-identifier", options.identifier ?? IDENTIFIER);
  if (signature !== null) headers.set("github-public-key-signature", signature);
  return POST(new Request("http://localhost/webhooks/secret-scanning", { method: "POST", headers, body }));
}

const match = (token: string, url = "https://github.com/someone/repo/blob/main/.env") =>
  ({ token, type: "keyport_api_key", url, source: "content" }) as const;

async function liveKey(environment: "dev" | "prod" = "prod") {
  const user = await bareAccount(`scanning-${Date.now()}-${counter++}@example.com`);
  const actor = { userId: user.id, ip: null, userAgent: null };
  const issued = await createKey(actor, { label: `found ${counter}`, environment, expiresAt: null });
  return { ...issued, userId: user.id };
}

describe("a correctly signed report", () => {
  it("revokes a live key at once, answers true_positive, issues no replacement, and another instance refuses it next", async () => {
    const { key, secret, userId } = await liveKey();
    // Another instance, whose cache holds the key.
    const otherInstance = cachedKeyLookup(runtime().keyStore);
    expect((await verifyApiKey(secret, new Date(), otherInstance)).ok).toBe(true);
    expect((await verifyApiKey(secret, new Date(), otherInstance)).ok).toBe(true);
    expect(otherInstance.stats.hits).toBeGreaterThanOrEqual(1);

    const body = JSON.stringify([match(secret)]);
    const response = await report(body);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      { token_hash: tokenHash(secret), token_type: "keyport_api_key", label: "true_positive" },
    ]);

    expect(await verifyApiKey(secret, new Date(), otherInstance)).toMatchObject({ ok: false });
    const row = await db.apiKey.findUniqueOrThrow({ where: { publicId: key.id } });
    expect(row).toMatchObject({
      revokedReason: "leaked",
      successorId: null,
      leakSource: "secret-scanning",
      leakUrl: "https://github.com/someone/repo/blob/main/.env",
    });
    expect(row.revokedAt).not.toBeNull();
    expect(await db.apiKey.count({ where: { userId } })).toBe(1);
    const audit = await db.teamAuditEvent.findFirstOrThrow({ where: { actorId: userId, action: "key.leaked" } });
    expect(audit).toMatchObject({ keyId: key.id, ip: null, userAgent: "secret-scanning" });
    expect(JSON.parse(audit.details!)).toMatchObject({ source: "secret-scanning", url: row.leakUrl });
    // The owner is told, for a key of either environment.
    expect(await db.mailMessage.count({ where: { kind: "key_reported_leaked", subject: key.id } })).toBe(1);
  });

  it("labels each case, in the report's order, and tells the owner of a development key too", async () => {
    const live = await liveKey("dev");
    const revoked = await liveKey();
    await report(JSON.stringify([match(revoked.secret)]));
    const unknown = generateApiKey("prod"); // well-formed, matches no key
    const broken = `${live.secret.slice(0, -1)}${live.secret.endsWith("A") ? "B" : "A"}`; // checksum fails

    const findUnique = vi.spyOn(db.apiKey, "findUnique");
    const response = await report(
      JSON.stringify([match(broken), match(live.secret), match(unknown), match(revoked.secret)]),
    );
    const labels = (await response.json()) as { token_hash: string; label: string }[];
    expect(labels.map((entry) => entry.label)).toEqual([
      "false_positive",
      "true_positive",
      "false_positive",
      "true_positive",
    ]);
    expect(labels.map((entry) => entry.token_hash)).toEqual(
      [broken, live.secret, unknown, revoked.secret].map(tokenHash),
    );
    // The checksum-failing token was never looked up: three lookups for four tokens.
    expect(findUnique.mock.calls.filter(([args]) => "digest" in (args.where ?? {}))).toHaveLength(3);
    findUnique.mockRestore();
    expect(await db.mailMessage.count({ where: { kind: "key_reported_leaked", subject: live.key.id } })).toBe(1);
    expect(JSON.stringify(labels)).not.toContain(live.secret);
  });

  it("answers true_positive for a decoy key and raises its alert, leaving the decoy armed", async () => {
    const user = await bareAccount(`scanning-decoy-${Date.now()}-${counter++}@example.com`);
    const actor = { userId: user.id, ip: null, userAgent: null };
    const decoy = await createKey(actor, { label: "decoy in CI", environment: "dev", expiresAt: null, decoy: true });
    const response = await report(JSON.stringify([match(decoy.secret, "https://github.com/x/y/blob/main/ci.yml")]));
    expect(await response.json()).toEqual([
      { token_hash: tokenHash(decoy.secret), token_type: "keyport_api_key", label: "true_positive" },
    ]);
    const alerts = await db.teamAuditEvent.findMany({ where: { actorId: user.id, action: "key.decoy_used" } });
    expect(alerts).toHaveLength(1);
    expect(JSON.parse(alerts[0]!.details!)).toEqual({
      route: "GitHub secret-scanning report",
      url: "https://github.com/x/y/blob/main/ci.yml",
    });
    expect((await db.apiKey.findUniqueOrThrow({ where: { publicId: decoy.key.id } })).revokedAt).toBeNull();
  });

  it("raises a decoy's alert once an hour, counted, however often a report is replayed or repeats the token", async () => {
    const user = await bareAccount(`scanning-replay-${Date.now()}-${counter++}@example.com`);
    const actor = { userId: user.id, ip: null, userAgent: null };
    const decoy = await createKey(actor, {
      label: "decoy in a gist",
      environment: "prod",
      expiresAt: null,
      decoy: true,
    });
    const body = JSON.stringify([match(decoy.secret)]);
    // The same signed report three times (a replay, or GitHub delivering again), then one that lists the token twice.
    for (let i = 0; i < 3; i++) expect((await report(body)).status).toBe(200);
    const twice = JSON.stringify([match(decoy.secret), match(decoy.secret, "https://github.com/x/y/blob/main/b.env")]);
    expect((await report(twice)).status).toBe(200);
    const alerts = await db.teamAuditEvent.findMany({ where: { actorId: user.id, action: "key.decoy_used" } });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.count).toBe(5);
    expect(await db.mailMessage.count({ where: { kind: "decoy_key_used", subject: decoy.key.id } })).toBe(1);
    expect(await checkStoredChains(db, { userId: user.id })).toMatchObject([{ problem: null }]);
  });

  it("is idempotent: the same report twice changes nothing the second time", async () => {
    const { key, secret, userId } = await liveKey();
    const body = JSON.stringify([match(secret)]);
    await report(body);
    const after = await db.apiKey.findUniqueOrThrow({ where: { publicId: key.id } });
    const auditCount = await db.teamAuditEvent.count({ where: { actorId: userId } });
    const second = await report(body);
    expect(await second.json()).toEqual([
      { token_hash: tokenHash(secret), token_type: "keyport_api_key", label: "true_positive" },
    ]);
    expect(await db.apiKey.findUniqueOrThrow({ where: { publicId: key.id } })).toEqual(after);
    expect(await db.teamAuditEvent.count({ where: { actorId: userId } })).toBe(auditCount);
  });
});

describe("a report that is not GitHub's", () => {
  it("is refused with 401 and changes nothing: unsigned, signed by another key, an unknown identifier, a re-serialised body", async () => {
    const { key, secret } = await liveKey();
    const body = JSON.stringify([match(secret)]);
    const reserialised = JSON.stringify(JSON.parse(body), null, 2);
    const signedOriginal = sign("sha256", Buffer.from(body), signingKey).toString("base64");
    for (const response of [
      await report(body, { signature: null }),
      await report(body, { key: otherKey }),
      await report(body, { identifier: "not-a-configured-key" }),
      await report(reserialised, { signature: signedOriginal }),
      await report(body, { signature: "bm90IGEgc2lnbmF0dXJl" }),
    ]) {
      expect(response.status).toBe(401);
      const error = ((await response.json()) as { error: Record<string, string> }).error;
      expect(error).toMatchObject({ code: "invalid_signature", type: "authentication_error" });
      expect(error.request_id).toMatch(/^req_/);
    }
    expect((await db.apiKey.findUniqueOrThrow({ where: { publicId: key.id } })).revokedAt).toBeNull();
  });

  it("refuses a key in a credential header (the wall's rule), and a body that is not a list of matches", async () => {
    const keyed = await POST(
      new Request("http://localhost/webhooks/secret-scanning", {
        method: "POST",
        headers: { authorization: `Bearer ${generateApiKey("dev")}` },
        body: "[]",
      }),
    );
    expect(keyed.status).toBe(403);
    const notAList = await report(JSON.stringify({ token: "x" }));
    expect(notAList.status).toBe(400);
    expect(((await notAList.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
  });
});
