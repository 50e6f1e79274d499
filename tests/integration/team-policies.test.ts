// A team's policies (lib/teams/policies.ts) on every path that could pass them
// by: the dashboard's actions (the real wrapper, session and form), the
// operator CLI (with and without --override-policy), rotation and a leak
// report's replacement; and what an admin sees: the change audited, bad
// values refused with nothing stored, keys that outlive a new maximum listed
// and never shortened.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { createKey, reportLeak, rotateKey, updateRestrictions } from "@/lib/keys/lifecycle";
import { requestKeyAction } from "@/lib/web/actions/key-requests";
import { latestExpiry } from "@/lib/teams/policies";
import { keysOutlivingPolicy, readTeamPolicy, setTeamPolicy } from "@/lib/teams/policy-store";
import { createKeyAction, rotateKeyAction } from "@/lib/web/actions/keys";
import { setTeamPolicyAction } from "@/lib/web/actions/teams";
import { adminInProcess as admin } from "../helpers/admin-in-process";
import { actAs as signInAs, formOf as form } from "../helpers/next-request";
import { operator, person, refusedOn, teamWith } from "../helpers/team-people";
import { createServiceAccount } from "@/lib/teams/service-accounts";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const DAY = 86_400_000;

let t: Awaited<ReturnType<typeof teamWith>>;
const keysOf = () => db.apiKey.findMany({ where: { teamId: t.team.id }, orderBy: { createdAt: "asc" } });
const policyRows = () =>
  db.teamAuditEvent.findMany({ where: { teamId: t.team.id, action: "team.policy_changed" }, orderBy: { seq: "asc" } });

/** The operator's key:create of a production key in the developer's name. */
const developerProdKeyByCli = (label: string, ...flags: string[]) =>
  admin([
    "key:create",
    "--team",
    t.team.slug,
    "--email",
    t.people.developer!.email,
    "--env",
    "prod",
    "--label",
    label,
    ...flags,
  ]);

beforeEach(async () => {
  t = await teamWith({ owner: "owner", admin: "admin", developer: "developer", viewer: "viewer" });
});

describe("production keys: admins only", () => {
  it(`under "admins", a developer's production key is refused on the dashboard and the CLI; an admin's is made`, async () => {
    await setTeamPolicy(person(t.people.owner!.id), t.team.id, { productionKeys: "admins" });
    await signInAs(t.people.developer!.id);
    const before = await keysOf();
    const refused = await createKeyAction(
      null,
      form({ team: t.team.slug, label: "prod by a developer", environment: "prod", expiry: "90" }),
    );
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.fieldErrors.environment?.[0]).toMatch(/only admins and owners create production keys/);
      // What was typed comes back.
      expect(refused.values.label).toBe("prod by a developer");
    }
    expect(await keysOf()).toEqual(before);
    // A development key is not limited by it.
    const dev = await createKeyAction(
      null,
      form({ team: t.team.slug, label: "dev", environment: "dev", expiry: "never" }),
    );
    expect(dev.ok, JSON.stringify(dev)).toBe(true);

    const cli = await developerProdKeyByCli("prod by the operator");
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/This team's policy/);
    expect(cli.stdout).toBe("");

    await signInAs(t.people.admin!.id);
    const byAdmin = await createKeyAction(
      null,
      form({ team: t.team.slug, label: "prod by an admin", environment: "prod", expiry: "90" }),
    );
    expect(byAdmin.ok, JSON.stringify(byAdmin)).toBe(true);
  });

  it("the operator's --override-policy makes the key, and its activity row says so", async () => {
    await setTeamPolicy(operator(""), t.team.id, { productionKeys: "admins" });
    const cli = await developerProdKeyByCli("overridden", "--override-policy");
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/^sk_prod_/);
    const key = await db.apiKey.findFirstOrThrow({ where: { teamId: t.team.id, label: "overridden" } });
    const created = await db.teamAuditEvent.findFirstOrThrow({ where: { keyId: key.publicId, action: "key.created" } });
    expect(JSON.parse(created.details ?? "{}")).toMatchObject({ override_policy: true });
    // Without the flag, the same key's row carries no such mark (the control).
    await setTeamPolicy(operator(""), t.team.id, { productionKeys: "developers" });
    const plain = await developerProdKeyByCli("plain");
    expect(plain.code, plain.stderr).toBe(0);
    const plainKey = await db.apiKey.findFirstOrThrow({ where: { teamId: t.team.id, label: "plain" } });
    const plainRow = await db.teamAuditEvent.findFirstOrThrow({
      where: { keyId: plainKey.publicId, action: "key.created" },
    });
    expect(JSON.parse(plainRow.details ?? "{}")).not.toHaveProperty("override_policy");
  });

  it("holds for a service account's key the CLI makes in a developer's name, and marks only an override that mattered", async () => {
    const robot = await createServiceAccount(operator(""), t.team.id, "robot");
    await setTeamPolicy(operator(""), t.team.id, { productionKeys: "admins" });
    const base = ["key:create", "--team", t.team.slug, "--service-account", "robot", "--env", "prod"];
    const refused = await admin([...base, "--email", t.people.developer!.email, "--label", "robot by a developer"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/only admins and owners create production keys/);
    // In the name of the team's longest-standing owner (no --email), it is made.
    const byOwner = await admin([...base, "--label", "robot by the owner"]);
    expect(byOwner.code, byOwner.stderr).toBe(0);
    expect(
      (await db.apiKey.findFirstOrThrow({ where: { teamId: t.team.id, label: "robot by the owner" } }))
        .serviceAccountId,
    ).toBe(robot.id);
    // An admin's key that breaks no policy, made with --override-policy: nothing was overridden, nothing is marked.
    const needless = await admin([
      "key:create",
      "--team",
      t.team.slug,
      "--email",
      t.people.admin!.email,
      "--env",
      "prod",
      "--label",
      "needless",
      "--override-policy",
    ]);
    expect(needless.code, needless.stderr).toBe(0);
    const key = await db.apiKey.findFirstOrThrow({ where: { teamId: t.team.id, label: "needless" } });
    const created = await db.teamAuditEvent.findFirstOrThrow({ where: { keyId: key.publicId, action: "key.created" } });
    expect(JSON.parse(created.details ?? "{}")).not.toHaveProperty("override_policy");
  });

  it('under "admins only", a developer cannot rotate their own production key, and a leak report revokes it without a replacement', async () => {
    const { key: own } = await createKey(person(t.people.developer!.id), {
      label: "made before the policy",
      environment: "prod",
      expiresAt: null,
      teamId: t.team.id,
    });
    // The control: under the default, the developer may rotate it (a second key of theirs, so this one stays).
    const { key: other } = await createKey(person(t.people.developer!.id), {
      label: "rotated under the default",
      environment: "prod",
      expiresAt: null,
      teamId: t.team.id,
    });
    await rotateKey(person(t.people.developer!.id), other.id, "now");
    await setTeamPolicy(person(t.people.admin!.id), t.team.id, { productionKeys: "admins" });

    await signInAs(t.people.developer!.id);
    const before = await keysOf();
    // A production key's rotation needs a fresh sign-in: the session is new, so it has one.
    const refused = await rotateKeyAction(null, form({ keyId: own.id, grace: "1h" }));
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toMatch(/only admins and owners create production keys/);
    expect(await keysOf()).toEqual(before);

    const leak = await reportLeak(person(t.people.developer!.id), own.id);
    expect(leak.replacement).toBeNull();
    expect(leak.replacementWithheld).toBe(true);
    expect((await db.apiKey.findFirstOrThrow({ where: { publicId: own.id } })).revokedAt).not.toBeNull();

    // An admin rotates a production key under the same rule.
    const { key: admins } = await createKey(person(t.people.admin!.id), {
      label: "an admin's",
      environment: "prod",
      expiresAt: null,
      teamId: t.team.id,
    });
    const rotated = await rotateKey(person(t.people.admin!.id), admins.id, "now");
    expect(rotated.secret).toMatch(/^sk_prod_/);
  });
});

describe("maximum lifetime", () => {
  it("refuses no expiry or a later one, on the dashboard and the CLI, for the environment it names only", async () => {
    await setTeamPolicy(person(t.people.owner!.id), t.team.id, { maxLifetimeDays: { prod: 30 } });
    await signInAs(t.people.developer!.id);
    const before = await keysOf();
    for (const fields of [
      { expiry: "never" } as Record<string, string>,
      { expiry: "90" },
      { expiry: "date", expiryDate: new Date(Date.now() + 45 * DAY).toISOString().slice(0, 10) },
    ]) {
      const result = await createKeyAction(
        null,
        form({ team: t.team.slug, label: "too long", environment: "prod", ...fields }),
      );
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.fieldErrors.expiry?.[0]).toMatch(/production keys expire within 30 days/);
    }
    expect(await keysOf()).toEqual(before);

    // Within it: 30 days, and the policy's own last day (the end of that UTC day), which the form suggests.
    const latest = latestExpiry(30, new Date()).toISOString().slice(0, 10);
    for (const fields of [{ expiry: "30" }, { expiry: "date", expiryDate: latest }] as Record<string, string>[]) {
      const made = await createKeyAction(
        null,
        form({ team: t.team.slug, label: "within", environment: "prod", ...fields }),
      );
      expect(made.ok, JSON.stringify(made)).toBe(true);
    }
    // Development keys have no maximum here.
    const dev = await createKeyAction(
      null,
      form({ team: t.team.slug, label: "dev forever", environment: "dev", expiry: "never" }),
    );
    expect(dev.ok, JSON.stringify(dev)).toBe(true);

    const noExpiry = await developerProdKeyByCli("cli forever");
    expect(noExpiry.code).toBe(1);
    expect(noExpiry.stderr).toMatch(/production keys expire within 30 days/);
    const within = await developerProdKeyByCli("cli within", "--expires-in-days", "30");
    expect(within.code, within.stderr).toBe(0);
    const overridden = await developerProdKeyByCli("cli forever anyway", "--override-policy");
    expect(overridden.code, overridden.stderr).toBe(0);
    expect(
      (await db.apiKey.findFirstOrThrow({ where: { teamId: t.team.id, label: "cli forever anyway" } })).expiresAt,
    ).toBeNull();
  });

  it("a rotation's new key gets the sooner of the old key's expiry and the maximum from now", async () => {
    const soon = new Date(Date.now() + 3 * DAY);
    const { key: forever } = await createKey(person(t.people.admin!.id), {
      label: "forever",
      environment: "dev",
      expiresAt: null,
      teamId: t.team.id,
    });
    const { key: shortLived } = await createKey(person(t.people.admin!.id), {
      label: "short-lived",
      environment: "dev",
      expiresAt: soon,
      teamId: t.team.id,
    });
    await setTeamPolicy(person(t.people.admin!.id), t.team.id, { maxLifetimeDays: { dev: 7 } });
    const now = new Date();
    const a = await rotateKey(person(t.people.developer!.id), forever.id, "now", now);
    expect(a.key.expiresAt?.getTime()).toBe(latestExpiry(7, now).getTime());
    const b = await rotateKey(person(t.people.developer!.id), shortLived.id, "now", now);
    expect(b.key.expiresAt?.getTime()).toBe(soon.getTime());
  });

  it("keys made before a new maximum are listed and keep their expiry", async () => {
    const { key: forever } = await createKey(person(t.people.admin!.id), {
      label: "forever",
      environment: "prod",
      expiresAt: null,
      teamId: t.team.id,
    });
    const { key: inside } = await createKey(person(t.people.admin!.id), {
      label: "inside",
      environment: "prod",
      expiresAt: new Date(Date.now() + 5 * DAY),
      teamId: t.team.id,
    });
    const policy = await readTeamPolicy(t.team.id);
    // No maximum, nothing outlives it (the control).
    expect(await keysOutlivingPolicy(t.team.id, policy)).toEqual([]);
    const strict = await setTeamPolicy(person(t.people.owner!.id), t.team.id, { maxLifetimeDays: { prod: 7 } });
    const listed = await keysOutlivingPolicy(t.team.id, strict);
    expect(listed.map((key) => key.id)).toEqual([forever.id]);
    expect((await db.apiKey.findFirstOrThrow({ where: { publicId: forever.id } })).expiresAt).toBeNull();
    expect(listed.map((key) => key.id)).not.toContain(inside.id);
  });
});

describe("changing the policies", () => {
  it("is audited with each policy's old and new value, and a change that changes nothing writes nothing", async () => {
    await signInAs(t.people.admin!.id);
    const result = await setTeamPolicyAction(
      null,
      form({ team: t.team.slug, productionKeys: "admins", maxLifetimeDaysProd: "90", maxLifetimeDaysDev: "" }),
    );
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(await readTeamPolicy(t.team.id)).toEqual({
      productionKeys: "admins",
      maxLifetimeDays: { prod: 90, dev: null },
      requireTwoFactor: false,
      productionDefaults: { scopes: "all", allowedIps: null },
    });
    const rows = await policyRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.actorId).toBe(t.people.admin!.id);
    expect(JSON.parse(rows[0]!.details ?? "{}")).toEqual({
      production_keys: { from: "developers", to: "admins" },
      max_lifetime_days_prod: { from: null, to: 90 },
    });
    const again = await setTeamPolicyAction(
      null,
      form({ team: t.team.slug, productionKeys: "admins", maxLifetimeDaysProd: " 90 ", maxLifetimeDaysDev: "" }),
    );
    expect(again.ok).toBe(true);
    expect(await policyRows()).toHaveLength(1);
  });

  it("refuses a lifetime of 0, 366, text or 10,000 characters, and an unknown rule, storing nothing", async () => {
    await signInAs(t.people.owner!.id);
    const before = await db.team.findUniqueOrThrow({ where: { id: t.team.id } });
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ maxLifetimeDaysProd: "0" }, "maxLifetimeDaysProd", /from 7 to 365/],
      [{ maxLifetimeDaysProd: "366" }, "maxLifetimeDaysProd", /from 7 to 365/],
      [{ maxLifetimeDaysDev: "thirty" }, "maxLifetimeDaysDev", /from 7 to 365/],
      [{ maxLifetimeDaysDev: "7".repeat(10_000) }, "maxLifetimeDaysDev", /from 7 to 365/],
      [{ maxLifetimeDaysDev: "-7" }, "maxLifetimeDaysDev", /from 7 to 365/],
      [{ productionKeys: "everyone" }, "productionKeys", /Choose who creates production keys/],
    ];
    for (const [fields, field, message] of cases) {
      const result = await setTeamPolicyAction(
        null,
        form({
          team: t.team.slug,
          productionKeys: "admins",
          maxLifetimeDaysProd: "",
          maxLifetimeDaysDev: "",
          ...fields,
        }),
      );
      expect(result.ok, JSON.stringify(fields)).toBe(false);
      if (!result.ok) expect(result.fieldErrors[field]?.[0]).toMatch(message);
    }
    expect(await db.team.findUniqueOrThrow({ where: { id: t.team.id } })).toEqual(before);
    expect(await policyRows()).toHaveLength(0);
  });

  it("the CLI sets only the policies given and prints them all; a bad value exits 2 and stores nothing", async () => {
    const set = await admin(["team:policy", "--team", t.team.slug, "--max-lifetime-days-dev", "14"]);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({
      team: t.team.slug,
      production_keys: "developers",
      max_lifetime_days_prod: null,
      max_lifetime_days_dev: 14,
      require_two_factor: "off",
      prod_default: { scopes: "all", allowed_ips: "any" },
    });
    const cleared = await admin([
      "team:policy",
      "--team",
      t.team.slug,
      "--max-lifetime-days-dev",
      "none",
      "--production-keys",
      "admins",
    ]);
    expect(JSON.parse(cleared.stdout)).toMatchObject({ production_keys: "admins", max_lifetime_days_dev: null });
    for (const bad of [
      // An unset variable in a script: refused, never read as "no maximum".
      ["--max-lifetime-days-prod", ""],
      ["--max-lifetime-days-dev", "  "],
      ["--max-lifetime-days-prod", "366"],
      ["--max-lifetime-days-prod", "soon"],
      ["--production-keys", "anyone"],
      ["--require-two-factor", "yes"],
    ]) {
      const result = await admin(["team:policy", "--team", t.team.slug, ...bad]);
      expect(result.code, bad.join(" ")).toBe(2);
      expect(result.stdout).toBe("");
    }
    expect(await readTeamPolicy(t.team.id)).toEqual({
      productionKeys: "admins",
      maxLifetimeDays: { prod: null, dev: null },
      requireTwoFactor: false,
      productionDefaults: { scopes: "all", allowedIps: null },
    });
    // Reading changes nothing and writes no row.
    const rows = (await policyRows()).length;
    const read = await admin(["team:policy", "--team", t.team.slug]);
    expect(JSON.parse(read.stdout)).toMatchObject({ production_keys: "admins" });
    expect(await policyRows()).toHaveLength(rows);
  });

  it("a developer or viewer cannot change them", async () => {
    for (const who of ["developer", "viewer"] as const) {
      await refusedOn(
        setTeamPolicy(person(t.people[who]!.id), t.team.id, { productionKeys: "developers" }),
        undefined,
        /Your role in this team/,
      );
    }
    expect(await policyRows()).toHaveLength(0);
  });
});

describe("defaults for new production keys", () => {
  const prodForm = (fields: Record<string, string>) =>
    form({ team: t.team.slug, label: "prod", environment: "prod", expiry: "90", ...fields });

  it("a developer's new production key keeps within them, on the dashboard, a request and the CLI; an admin may widen; nothing refused is stored", async () => {
    const set = await admin([
      "team:policy",
      "--team",
      t.team.slug,
      "--prod-default-scopes",
      "read-only",
      "--prod-default-allow-ip",
      "203.0.113.0/24",
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout).prod_default).toEqual({
      scopes: ["catalog:read", "generations:read"],
      allowed_ips: ["203.0.113.0/24"],
    });
    await signInAs(t.people.developer!.id);
    const before = await keysOf();
    const wider = [
      [{ access: "all", allowedIps: "203.0.113.0/24" }, "scopes"],
      [{ access: "read-only", allowedIps: "" }, "allowedIps"],
      [{ access: "read-only", allowedIps: "198.51.100.7" }, "allowedIps"],
    ] as const;
    for (const [fields, field] of wider) {
      const refused = await createKeyAction(null, prodForm(fields));
      expect(!refused.ok && refused.fieldErrors[field]?.[0], JSON.stringify(fields)).toMatch(
        /default for production keys is Read only · IP allowlist: 203\.0\.113\.0\/24/,
      );
    }
    expect(await keysOf()).toEqual(before);
    // Within them (narrower, even): made.
    const within = await createKeyAction(
      null,
      prodForm({ access: "custom", "scope:catalog:read": "on", allowedIps: "203.0.113.8/29" }),
    );
    expect(within.ok, JSON.stringify(within)).toBe(true);
    // The same wider key, in the developer's name by the operator: refused unless overridden.
    const cli = await developerProdKeyByCli("wider by the operator");
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/default for production keys/);
    expect((await developerProdKeyByCli("overridden", "--override-policy")).code).toBe(0);
    // An admin may give a production key more.
    await signInAs(t.people.admin!.id);
    expect((await createKeyAction(null, prodForm({ access: "all", allowedIps: "" }))).ok).toBe(true);

    // Under approval, a request past the defaults is refused on its field, and nothing is stored.
    await setTeamPolicy(operator(""), t.team.id, { productionKeys: "approval" });
    await signInAs(t.people.developer!.id);
    const request = await requestKeyAction(
      null,
      prodForm({ access: "all", allowedIps: "203.0.113.0/24", reason: "r" }),
    );
    expect(!request.ok && request.fieldErrors.scopes?.[0]).toMatch(/ask an admin for a wider key/);
    expect(await db.keyRequest.count({ where: { teamId: t.team.id } })).toBe(0);
  });

  it("an existing production key: a developer narrows it or keeps it within the defaults, never past them", async () => {
    const { key } = await createKey(person(t.people.developer!.id), {
      label: "made before the defaults",
      environment: "prod",
      expiresAt: null,
      teamId: t.team.id,
    });
    await setTeamPolicy(operator(""), t.team.id, {
      productionDefaults: { scopes: ["catalog:read", "generations:read"], allowedIps: null },
    });
    // Narrowing a key made before (wider than the defaults) is allowed, and so is any access within them.
    const narrowed = await updateRestrictions(person(t.people.developer!.id), key.id, {
      scopes: ["catalog:read", "models:invoke"],
      allowedIps: null,
      rateLimit: null,
    });
    expect(narrowed.restrictions.scopes).toEqual(["catalog:read", "models:invoke"]);
    await updateRestrictions(person(t.people.developer!.id), key.id, {
      scopes: ["catalog:read", "generations:read"],
      allowedIps: null,
      rateLimit: null,
    });
    await refusedOn(
      updateRestrictions(person(t.people.developer!.id), key.id, { scopes: "all", allowedIps: null, rateLimit: null }),
      "scopes",
      /default for production keys/,
    );
    // An admin may.
    const widened = await updateRestrictions(person(t.people.admin!.id), key.id, {
      scopes: "all",
      allowedIps: null,
      rateLimit: null,
    });
    expect(widened.restrictions.scopes).toBe("all");
  });

  it("are set on the settings page by an admin, audited, and refused on their field when bad", async () => {
    await signInAs(t.people.admin!.id);
    const base = { team: t.team.slug, productionKeys: "developers", maxLifetimeDaysProd: "", maxLifetimeDaysDev: "" };
    const bad = await setTeamPolicyAction(null, form({ ...base, access: "custom", allowedIps: "" }));
    expect(!bad.ok && bad.fieldErrors.scopes?.[0]).toMatch(/at least one scope/);
    const badIp = await setTeamPolicyAction(null, form({ ...base, access: "all", allowedIps: "10.0.0.300" }));
    expect(!badIp.ok && badIp.fieldErrors.allowedIps?.[0]).toMatch(/not an IPv4 or IPv6/);
    expect((await readTeamPolicy(t.team.id)).productionDefaults).toEqual({ scopes: "all", allowedIps: null });
    const saved = await setTeamPolicyAction(null, form({ ...base, access: "read-only", allowedIps: "2001:db8::/32" }));
    expect(saved.ok, JSON.stringify(saved)).toBe(true);
    expect((await readTeamPolicy(t.team.id)).productionDefaults).toEqual({
      scopes: ["catalog:read", "generations:read"],
      allowedIps: ["2001:db8::/32"],
    });
    const [row] = await policyRows();
    expect(JSON.parse(row!.details ?? "{}")).toEqual({
      production_key_defaults: {
        from: "scopes: all; addresses: any",
        to: "scopes: catalog:read, generations:read; addresses: 2001:db8::/32",
      },
    });
  });
});
