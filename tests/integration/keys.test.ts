import { describe, expect, it, vi } from "vitest";
import type { Actor } from "@/lib/audit";
import { createAccount } from "@/lib/auth/accounts";
import { createSession } from "@/lib/auth/session-store";
import { db } from "@/lib/db";
import { keyDigest } from "@/lib/keys/digest";
import { DomainError } from "@/lib/domain-error";
import { API_KEY_PATTERN, generateApiKey, newKeyId } from "@/lib/keys/format";
import { createKeySchema, type GracePeriod } from "@/lib/keys/key.schema";
import { ACTIVE_KEY_CAP, createKey, renameKey, reportLeak, revokeKey, rotateKey } from "@/lib/keys/lifecycle";
import { listActivity, listKeys } from "@/lib/keys/queries";
import { verifyApiKey } from "@/lib/keys/verify";
import { createKeyAction, renameKeyAction } from "@/lib/web/actions/keys";
import { request } from "../helpers/next-request";
import { personalTeam, personalTeamId } from "../helpers/teams";

// The dashboard's actions, for labels: Next's request APIs as the browser's request.
vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const HOUR = 60 * 60 * 1000;
let counter = 0;

async function newActor(): Promise<Actor> {
  const result = await createAccount(`keys-${Date.now()}-${counter++}@example.com`, "a long enough password");
  if (!result.ok) throw new Error(result.error);
  return { userId: result.userId, ip: "192.0.2.10", userAgent: "Vitest" };
}

const devKey = (label = "billing") => ({ label, environment: "dev" as const, expiresAt: null });

async function auditActions(actor: Actor, keyId?: string) {
  return (await listActivity(await personalTeam(actor.userId), { keyId })).items.map((entry) => entry.action);
}

describe("creating keys", () => {
  it("returns the secret once and stores only its digest and fragment, with an audit row", async () => {
    const actor = await newActor();
    const { key, secret } = await createKey(actor, { label: "billing", environment: "prod", expiresAt: null });
    expect(secret).toMatch(API_KEY_PATTERN);
    expect(secret.startsWith("sk_prod_")).toBe(true);
    const row = await db.apiKey.findUniqueOrThrow({ where: { publicId: key.id } });
    expect(row.digest).toBe(keyDigest(secret));
    expect(row.displayFragment).toBe(`sk_prod_${secret.slice(8, 12)}…${secret.slice(-4)}`);
    expect(key).toMatchObject({ label: "billing", environment: "prod", status: "active", lastUsedAt: null });
    expect(key).not.toHaveProperty("digest");
    const [entry] = (await listActivity(await personalTeam(actor.userId), { keyId: key.id })).items;
    expect(entry).toMatchObject({ action: "key.created", keyId: key.id, ip: "192.0.2.10", userAgent: "Vitest" });
  });

  it("validates labels and expiry choices with a clear message each", () => {
    const parse = (input: object) =>
      createKeySchema.safeParse({ label: "ok", environment: "dev", expiry: "never", ...input });
    const message = (input: object) => {
      const result = parse(input);
      return result.success ? null : result.error.issues[0]?.message;
    };
    expect(message({ label: "   " })).toBe("Give the key a label.");
    expect(message({ label: "x".repeat(65) })).toBe("Use at most 64 characters for the label.");
    expect(message({ label: "bad\u0007label" })).toBe("The label cannot contain control characters.");
    expect(message({ environment: "staging" })).toBe("Choose Development or Production.");
    expect(message({ expiry: "date", expiryDate: "2001-01-01" })).toBe("The expiry date must be in the future.");
    expect(message({ expiry: "date" })).toBe("Pick an expiry date.");
    expect(message({ expiry: "date", expiryDate: "2031-02-31" })).toBe("Pick an expiry date.");
    expect(message({ label: "invoice\u202Egpj.exe" })).toBe(
      "The label cannot contain text-direction control characters.",
    );
    expect(message({ label: Buffer.from(generateApiKey("prod")).toString("base64") })).toBe(
      "The label cannot contain an API key.",
    );
    for (const invisible of ["\u200B", "\u200B\u200C\u200D", "\u2060\uFEFF", "\u3164", "\u2800", "\u00AD \u200E"]) {
      expect(message({ label: invisible }), escape(invisible)).toBe(
        "Give the key a label that shows: it holds only invisible characters.",
      );
    }
    expect(message({ label: "ci\u2028deploy" })).toBe("The label cannot contain line or paragraph separators.");
    // Controls: a visible name with such a character in it, an emoji sequence joined by U+200D, and Unicode words.
    for (const shown of ["a\u200Bb", "👨‍👩‍👧 family", "東京 deploy", "Zürich ✓"])
      expect(message({ label: shown })).toBeNull();
    expect(parse({ label: "  spaced  " }).data?.label).toBe("spaced");
    const in30 = parse({ expiry: "30" }).data?.expiresAt?.getTime() ?? 0;
    expect(Math.abs(in30 - (Date.now() + 30 * 24 * HOUR))).toBeLessThan(5_000);
  });

  it(`refuses the ${ACTIVE_KEY_CAP + 1}st key in use, counting keys in a rotation's grace period; rotation stays allowed at the cap`, async () => {
    const actor = await newActor();
    const first = await createKey(actor, devKey("k0"));
    for (let i = 1; i < ACTIVE_KEY_CAP - 1; i++) await createKey(actor, devKey(`k${i}`));
    // 99 in use. Rotating one makes 100: 99 active and 1 in its grace period.
    const { key: replacement } = await rotateKey(actor, first.key.id, "24h");
    const before = await db.apiKey.count({ where: { userId: actor.userId } });
    const refused = createKey(actor, devKey("one too many"));
    await expect(refused).rejects.toThrow(DomainError);
    await expect(refused).rejects.toThrow(/already have 100 keys in use/);
    expect(await db.apiKey.count({ where: { userId: actor.userId } })).toBe(before);
    // At the cap, a rotation and a leak report still work: the count is the same once the grace ends.
    const rotatedAgain = await rotateKey(actor, replacement.id, "1h");
    expect(rotatedAgain.key.status).toBe("active");
    const leaked = await reportLeak(actor, rotatedAgain.key.id);
    expect(leaked.replacement?.key.status).toBe("active");
    // When the grace periods end, there is room again.
    await expect(createKey(actor, devKey("after the grace"), new Date(Date.now() + 25 * HOUR))).resolves.toBeTruthy();
    // 99 created, the rotations' and the leak's replacements record their own creation, and the last one.
    expect(await db.teamAuditEvent.count({ where: { actorId: actor.userId, action: "key.created" } })).toBe(
      ACTIVE_KEY_CAP + 3,
    );
    // Its first row in the team's chain (without an order, PostgreSQL may hand back its later "rotated" row first).
    const created = await db.teamAuditEvent.findFirstOrThrow({
      where: { keyId: replacement.id },
      orderBy: { seq: "asc" },
    });
    expect(created.action).toBe("key.created");
    expect(JSON.parse(created.details!)).toEqual({
      environment: "dev",
      label: "k0",
      replaces: first.key.id,
      via: "rotation",
    });
  });
});

describe("a label holding an API key", () => {
  it("is refused on its field by create and rename, keeping what was typed, and nothing is stored", async () => {
    const actor = await newActor();
    const session = await createSession(actor.userId, "192.0.2.10", "Vitest");
    request.cookies = new Map([["keyport.session", session.sessionToken]]);
    request.headers = new Headers({ "user-agent": "Vitest", "x-keyport-peer-ip": "192.0.2.10" });
    const { key, secret } = await createKey(actor, devKey("billing"));
    const form = (fields: Record<string, string>) => {
      const data = new FormData();
      for (const [name, value] of Object.entries(fields)) data.set(name, value);
      return data;
    };

    const label = `billing ${secret}`;
    const refused = { ok: false, fieldErrors: { label: ["The label cannot contain an API key."] } };
    // The rest of the form comes back; the pasted key never does (lib/web/action-result.ts).
    const created = await createKeyAction(null, form({ label, environment: "prod", expiry: "never" }));
    expect(created).toMatchObject({ ...refused, values: { environment: "prod", expiry: "never" } });
    expect(!created.ok && created.values).not.toHaveProperty("label");
    const renamed = await renameKeyAction(null, form({ keyId: key.id, label }));
    expect(renamed).toMatchObject({ ...refused, values: { keyId: key.id } });
    expect(!renamed.ok && renamed.values).not.toHaveProperty("label");
    const rows = await db.apiKey.findMany({ where: { userId: actor.userId }, select: { label: true } });
    expect(rows).toEqual([{ label: "billing" }]);
    expect(await auditActions(actor, key.id)).toEqual(["key.created"]);
    expect(await db.mailMessage.count({ where: { userId: actor.userId } })).toBe(0);

    // A look-alike that fails the checksum is a label like any other.
    expect(await renameKeyAction(null, form({ keyId: key.id, label: "sk_dev_notes2024" }))).toMatchObject({ ok: true });
  });
});

describe("rotating keys", () => {
  it.each([
    ["now", 0],
    ["1h", HOUR],
    ["24h", 24 * HOUR],
    ["7d", 7 * 24 * HOUR],
  ] as [GracePeriod, number][])(
    "with grace %s keeps the old key working until then, and not after",
    async (grace, ms) => {
      const actor = await newActor();
      const old = await createKey(actor, devKey());
      const now = new Date();
      const { key: replacement, secret } = await rotateKey(actor, old.key.id, grace, now);
      expect(replacement).toMatchObject({ label: "billing", environment: "dev", status: "active" });
      const oldRow = await db.apiKey.findUniqueOrThrow({ where: { publicId: old.key.id } });
      expect(oldRow.expiresAt?.getTime()).toBe(now.getTime() + ms);

      if (ms > 0) {
        expect(await verifyApiKey(old.secret, new Date(now.getTime() + ms - 1000))).toMatchObject({ ok: true });
        const list = await listKeys(await personalTeamId(actor.userId), {}, new Date(now.getTime() + 1000));
        expect(list.items.find((k) => k.id === old.key.id)).toMatchObject({
          status: "expiring",
          successor: { id: replacement.id, label: replacement.label },
        });
      }
      expect(await verifyApiKey(old.secret, new Date(now.getTime() + ms + 1000))).toMatchObject({
        ok: false,
        reason: "expired",
        key: { publicId: old.key.id },
      });
      expect(await verifyApiKey(secret, new Date(now.getTime() + ms + 1000))).toMatchObject({ ok: true });
      const [entry] = (await listActivity(await personalTeam(actor.userId), { keyId: old.key.id })).items;
      expect(entry).toMatchObject({ action: "key.rotated", details: { replacement: replacement.id, grace } });
    },
  );

  it("never lets the old key outlive its own expiry, and gives the new key the same expiry", async () => {
    const actor = await newActor();
    const expiresAt = new Date(Date.now() + HOUR / 2);
    const old = await createKey(actor, { label: "short", environment: "prod", expiresAt });
    const { key } = await rotateKey(actor, old.key.id, "7d");
    expect((await db.apiKey.findUniqueOrThrow({ where: { publicId: old.key.id } })).expiresAt).toEqual(expiresAt);
    expect(key.expiresAt).toEqual(expiresAt);
    expect(key.environment).toBe("prod");
  });

  it("refuses a key that was rotated, revoked or has expired, changing nothing", async () => {
    const actor = await newActor();
    const rotated = await createKey(actor, devKey());
    await rotateKey(actor, rotated.key.id, "1h");
    await expect(rotateKey(actor, rotated.key.id, "1h")).rejects.toThrow(/already rotated/);

    const revoked = await createKey(actor, devKey());
    await revokeKey(actor, revoked.key.id, null);
    await expect(rotateKey(actor, revoked.key.id, "1h")).rejects.toThrow(/revoked and cannot be rotated/);

    const expired = await createKey(actor, { ...devKey(), expiresAt: new Date(Date.now() + 1000) });
    await expect(rotateKey(actor, expired.key.id, "1h", new Date(Date.now() + 5000))).rejects.toThrow(/expired/);
    expect((await auditActions(actor)).filter((a) => a === "key.rotated")).toHaveLength(1);
  });

  it("50 concurrent rotations of one key give exactly one successor and 49 clear refusals", async () => {
    const actor = await newActor();
    const { key } = await createKey(actor, devKey());
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => rotateKey(actor, key.id, "1h")));
    const fulfilled = results.filter((r) => r.status === "fulfilled");
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(49);
    for (const r of rejected) {
      expect(r.reason).toBeInstanceOf(DomainError);
      expect((r.reason as Error).message).toMatch(/already rotated/);
    }
    expect(await db.apiKey.count({ where: { userId: actor.userId } })).toBe(2);
    expect((await auditActions(actor)).filter((a) => a === "key.rotated")).toHaveLength(1);
  });
});

describe("revoking and leaks", () => {
  it("revokes at once with an optional reason, and refuses a second time", async () => {
    const actor = await newActor();
    const { key, secret } = await createKey(actor, devKey());
    expect(await verifyApiKey(secret)).toMatchObject({ ok: true });
    const revoked = await revokeKey(actor, key.id, "no longer used");
    expect(revoked).toMatchObject({ status: "revoked", revokedReason: "no longer used" });
    expect(await verifyApiKey(secret)).toMatchObject({ ok: false, reason: "revoked" });
    await expect(revokeKey(actor, key.id, null)).rejects.toThrow("This key is already revoked.");
    expect(await auditActions(actor, key.id)).toEqual(["key.revoked", "key.created"]);
  });

  it("'this key leaked' revokes with no grace and issues a replacement", async () => {
    const actor = await newActor();
    const { key, secret } = await createKey(actor, { label: "prod api", environment: "prod", expiresAt: null });
    const outcome = await reportLeak(actor, key.id);
    expect(outcome.revoked).toMatchObject({ status: "revoked", revokedReason: "leaked" });
    expect(outcome.replacement?.secret).toMatch(/^sk_prod_/);
    expect(outcome.revoked.successor?.id).toBe(outcome.replacement?.key.id);
    expect(await verifyApiKey(secret)).toMatchObject({ ok: false, reason: "revoked" });
    expect(await verifyApiKey(outcome.replacement!.secret)).toMatchObject({ ok: true });
    expect(await auditActions(actor, key.id)).toEqual(["key.leaked", "key.created"]);
    // The replacement's own history starts with its creation, naming the key it replaces.
    expect(await auditActions(actor, outcome.replacement!.key.id)).toEqual(["key.created"]);
  });

  it("a leak during a rotation's grace period revokes the old key and keeps the existing replacement", async () => {
    const actor = await newActor();
    const { key, secret } = await createKey(actor, devKey());
    const rotated = await rotateKey(actor, key.id, "7d");
    const outcome = await reportLeak(actor, key.id);
    expect(outcome.replacement).toBeNull();
    expect(outcome.existingReplacementId).toBe(rotated.key.id);
    expect(await verifyApiKey(secret)).toMatchObject({ ok: false, reason: "revoked" });
    expect(await verifyApiKey(rotated.secret)).toMatchObject({ ok: true });
  });
});

describe("a leak after the replacement was revoked", () => {
  it("issues a new replacement instead of pointing at the dead one", async () => {
    const actor = await newActor();
    const { key, secret } = await createKey(actor, devKey());
    const rotated = await rotateKey(actor, key.id, "7d");
    await revokeKey(actor, rotated.key.id, null);
    const outcome = await reportLeak(actor, key.id);
    expect(outcome.replacement?.secret).toMatch(API_KEY_PATTERN);
    expect(outcome.revoked.successor?.id).toBe(outcome.replacement?.key.id);
    expect(await verifyApiKey(secret)).toMatchObject({ ok: false, reason: "revoked" });
    expect(await verifyApiKey(outcome.replacement!.secret)).toMatchObject({ ok: true });
  });
});

describe("ownership", () => {
  it("refuses another user's key id on every action, with 'not found', and changes and records nothing", async () => {
    const owner = await newActor();
    const intruder = await newActor();
    const { key, secret } = await createKey(owner, devKey("owner's"));
    const attempts = [
      () => renameKey(intruder, key.id, "mine now"),
      () => rotateKey(intruder, key.id, "now"),
      () => revokeKey(intruder, key.id, null),
      () => reportLeak(intruder, key.id),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toThrow("That key was not found.");
    expect(await verifyApiKey(secret)).toMatchObject({ ok: true });
    expect(await db.apiKey.findUniqueOrThrow({ where: { publicId: key.id } })).toMatchObject({
      label: "owner's",
      revokedAt: null,
      successorId: null,
    });
    expect(await auditActions(intruder)).toEqual([]);
    expect(await auditActions(owner)).toEqual(["key.created"]);
    expect((await listKeys(await personalTeamId(intruder.userId))).total).toBe(0);
  });

  it("renames in place and records both labels", async () => {
    const actor = await newActor();
    const { key } = await createKey(actor, devKey("old name"));
    expect(await renameKey(actor, key.id, "new name")).toMatchObject({ key: { label: "new name" }, changed: true });
    const [entry] = (await listActivity(await personalTeam(actor.userId), { keyId: key.id })).items;
    expect(entry).toMatchObject({ action: "key.renamed", details: { from: "old name", to: "new name" } });
  });

  it("to the name it has changes nothing and logs nothing", async () => {
    const actor = await newActor();
    const { key } = await createKey(actor, devKey("same name"));
    expect(await renameKey(actor, key.id, "same name")).toMatchObject({ key: { label: "same name" }, changed: false });
    const actions = (await listActivity(await personalTeam(actor.userId), { keyId: key.id })).items.map(
      (e) => e.action,
    );
    expect(actions).toEqual(["key.created"]);
    // A change of case is a change.
    expect(await renameKey(actor, key.id, "Same name")).toMatchObject({ changed: true });
  });
});

describe("listing", () => {
  it("searches by label in any case, by key id and by the shown part of the secret, with the filters", async () => {
    const actor = await newActor();
    const teamId = await personalTeamId(actor.userId);
    const billing = await createKey(actor, devKey("Billing Export"));
    const prodBilling = await createKey(actor, { ...devKey("billing cron"), environment: "prod" as const });
    const other = await createKey(actor, devKey("100%_done"));
    await createKey(actor, devKey("unrelated"));
    const ids = async (search: string, environment?: "dev" | "prod") =>
      (await listKeys(teamId, { search, environment })).items.map((key) => key.id).toSorted();

    expect(await ids("BILLING")).toEqual([billing.key.id, prodBilling.key.id].toSorted());
    expect(await ids("billing", "prod")).toEqual([prodBilling.key.id]);
    expect(await ids(billing.key.id)).toEqual([billing.key.id]);
    expect(await ids(billing.key.id.slice(4, 12))).toEqual([billing.key.id]);
    // The shown part of the secret, as the list shows it, and each of its ends.
    const fragment = billing.key.displayFragment;
    expect(await ids(fragment)).toEqual([billing.key.id]);
    expect(await ids(fragment.split("…")[0]!)).toContain(billing.key.id);
    expect(await ids(billing.secret.slice(-4))).toContain(billing.key.id);
    // LIKE's wildcards are searched for as themselves.
    expect(await ids("%_")).toEqual([other.key.id]);
    expect(await ids("0%")).toEqual([other.key.id]);
    expect(await ids("nothing like it")).toEqual([]);
    // Another team's keys are never found.
    const stranger = await newActor();
    expect((await listKeys(await personalTeamId(stranger.userId), { search: "billing" })).total).toBe(0);
  });

  it("filters by environment and status, and pages through 1,000 keys", async () => {
    const actor = await newActor();
    const teamId = await personalTeamId(actor.userId);
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      publicId: `key_${String(i).padStart(16, "0")}`,
      teamId,
      userId: actor.userId,
      environment: i % 2 === 0 ? "dev" : "prod",
      label: `bulk ${i}`,
      digest: keyDigest(`bulk-${actor.userId}-${i}`),
      displayFragment: "sk_dev_xxxx…xxxx",
      createdAt: new Date(Date.now() - i * 1000),
      revokedAt: i % 10 === 0 ? new Date() : null,
    }));
    await db.apiKey.createMany({ data: rows });
    // By default the list holds the keys in use: the 100 revoked ones are hidden.
    const inUse = await listKeys(await personalTeamId(actor.userId), { page: 1 });
    expect(inUse).toMatchObject({ total: 900, pageCount: 36, page: 1 });
    expect(inUse.items[0]?.label).toBe("bulk 1");
    const all = await listKeys(await personalTeamId(actor.userId), { page: 1, showInactive: true });
    expect(all).toMatchObject({ total: 1000, pageCount: 40, page: 1 });
    expect(all.items[0]?.label).toBe("bulk 0");
    const last = await listKeys(await personalTeamId(actor.userId), { page: 40, showInactive: true });
    expect(last.items.at(-1)?.label).toBe("bulk 999");
    expect((await listKeys(await personalTeamId(actor.userId), { environment: "prod" })).total).toBe(500);
    expect((await listKeys(await personalTeamId(actor.userId), { environment: "dev" })).total).toBe(400);
    expect((await listKeys(await personalTeamId(actor.userId), { environment: "dev", showInactive: true })).total).toBe(
      500,
    );
    expect((await listKeys(await personalTeamId(actor.userId), { status: "revoked" })).total).toBe(100);
    expect((await listKeys(await personalTeamId(actor.userId), { status: "active", environment: "dev" })).total).toBe(
      400,
    );
    expect((await listKeys(await personalTeamId(actor.userId), { page: 999, showInactive: true })).page).toBe(40);
  });

  it("lists the keys in use that expire within 7 days first, soonest first, then the rest newest first, across pages", async () => {
    const actor = await newActor();
    const teamId = await personalTeamId(actor.userId);
    const now = new Date();
    const DAY = 86_400_000;
    const key = (i: number, fields: Record<string, unknown> = {}) => ({
      // Random, as the app makes them: a made-up one could be another test's (the paging test above uses key_000…).
      publicId: newKeyId(),
      teamId,
      userId: actor.userId,
      environment: "dev",
      label: `key ${i}`,
      digest: keyDigest(`order-${actor.userId}-${i}`),
      displayFragment: "sk_dev_xxxx…xxxx",
      createdAt: new Date(now.getTime() - (100 - i) * 60_000),
      ...fields,
    });
    await db.apiKey.createMany({
      data: [
        // Thirty that never expire, newest last here; one in 8 days; the three that expire soon are the oldest.
        ...Array.from({ length: 30 }, (_, i) => key(i + 10)),
        key(50, { label: "in 8 days", expiresAt: new Date(now.getTime() + 8 * DAY) }),
        key(1, { label: "in 6 days", expiresAt: new Date(now.getTime() + 6 * DAY) }),
        key(2, { label: "in 2 hours", expiresAt: new Date(now.getTime() + 2 * 3_600_000) }),
        key(3, { label: "in 3 days", expiresAt: new Date(now.getTime() + 3 * DAY) }),
        // Revoked, it is hidden; shown, it is not at the top.
        key(4, { label: "revoked, in 1 day", expiresAt: new Date(now.getTime() + DAY), revokedAt: now }),
      ],
    });
    const first = await listKeys(teamId, { page: 1 }, now);
    expect(first.total).toBe(34);
    expect(first.items.slice(0, 4).map((k) => k.label)).toEqual(["in 2 hours", "in 3 days", "in 6 days", "in 8 days"]);
    expect(first.items[4]?.label).toBe("key 39");
    const second = await listKeys(teamId, { page: 2 }, now);
    const labels = [...first.items, ...second.items].map((k) => k.label);
    expect(new Set(labels).size).toBe(34);
    expect(labels.at(-1)).toBe("key 10");
    const everything = await listKeys(teamId, { page: 1, showInactive: true }, now);
    expect(everything.items.slice(0, 3).map((k) => k.label)).toEqual(["in 2 hours", "in 3 days", "in 6 days"]);
    expect(everything.total).toBe(35);
    // The revoked one is among the rest, by age: the oldest, last of all.
    expect((await listKeys(teamId, { page: 2, showInactive: true }, now)).items.at(-1)?.label).toBe(
      "revoked, in 1 day",
    );
  });
});

describe("storage", () => {
  it("keeps no full key in any column of any table", async () => {
    const actor = await newActor();
    const secrets = [
      (await createKey(actor, devKey())).secret,
      (await createKey(actor, { label: "p", environment: "prod", expiresAt: null })).secret,
    ];
    const rotated = await createKey(actor, devKey());
    secrets.push(rotated.secret, (await rotateKey(actor, rotated.key.id, "1h")).secret);
    const leaked = await createKey(actor, devKey());
    secrets.push(leaked.secret, (await reportLeak(actor, leaked.key.id)).replacement!.secret);

    const dump = JSON.stringify(
      await Promise.all([
        db.user.findMany(),
        db.account.findMany(),
        db.session.findMany(),
        db.verificationToken.findMany(),
        db.authAttempt.findMany(),
        db.apiKey.findMany(),
        db.auditEvent.findMany(),
        db.teamAuditEvent.findMany(),
      ]),
    );
    for (const secret of secrets) {
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain(secret.slice(-30, -6)); // no long run of its random part either
    }
  });
});
