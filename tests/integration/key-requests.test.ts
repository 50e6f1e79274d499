// Requests for production keys under "developers with approval"
// (lib/keys/key-requests.ts): the dashboard's actions through the real
// wrapper (session, form, fresh sign-in), the operator CLI, and the rules a
// security reviewer asks about: only admins decide, never their own request;
// only the requester reveals, once; the secret exists only from the reveal;
// the policy is read again at approval and at reveal; two approvals or two
// reveals at once make one decision and one secret; waiting requests expire.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { keyDigest } from "@/lib/keys/digest";
import { generateApiKey } from "@/lib/keys/format";
import { decideKeyRequest, REQUESTER_LEFT, requestProductionKey, revealRequestedKey } from "@/lib/keys/key-requests";
import { createKey, rotateKey, updateRestrictions } from "@/lib/keys/lifecycle";
import { renderMail } from "@/lib/mail/templates";
import { UNRESTRICTED } from "@/lib/keys/restrictions";
import { addMember, removeMember, setRole } from "@/lib/teams/members";
import { setTeamPolicy } from "@/lib/teams/policy-store";
import { decideKeyRequestAction, requestKeyAction, revealKeyRequestAction } from "@/lib/web/actions/key-requests";
import { createKeyAction } from "@/lib/web/actions/keys";
import { adminInProcess as admin } from "../helpers/admin-in-process";
import { actAs as signInAs, formOf as form } from "../helpers/next-request";
import { operator, person, refusedOn, teamWith } from "../helpers/team-people";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const DAY = 86_400_000;

let t: Awaited<ReturnType<typeof teamWith>>;
const requestsOf = () => db.keyRequest.findMany({ where: { teamId: t.team.id }, orderBy: { createdAt: "asc" } });
const keysOf = () => db.apiKey.findMany({ where: { teamId: t.team.id } });
const mailsTo = (userId: string, kind: string) => db.mailMessage.findMany({ where: { userId, kind } });
const id = (name: string) => t.people[name]!.id;

/** The request form as the dialog posts it. */
const requestForm = (fields: Record<string, string> = {}) =>
  form({
    team: t.team.slug,
    label: "billing prod",
    environment: "prod",
    expiry: "90",
    reason: "Billing goes live.",
    ...fields,
  });

/** A request made by the developer, straight through the domain. */
const ask = (now = new Date(), expiresAt: Date | null = new Date(now.getTime() + 30 * DAY)) =>
  requestProductionKey(
    person(id("developer")),
    t.team.id,
    { label: "asked", expiresAt, restrictions: { ...UNRESTRICTED, scopes: ["catalog:read"] }, reason: "Because." },
    now,
  );

const approve = (who: string, requestId: string, now = new Date()) =>
  decideKeyRequest(person(id(who)), t.team.id, requestId, { approve: true, comment: null }, now);

beforeEach(async () => {
  t = await teamWith({ owner: "owner", admin: "admin", admin2: "admin", developer: "developer", viewer: "viewer" });
  await setTeamPolicy(operator(""), t.team.id, { productionKeys: "approval" });
});

describe("asking", () => {
  it("a developer's production key is refused with the way to ask; the request is stored, audited, and mailed to each admin and owner, with no key and no secret anywhere", async () => {
    await signInAs(id("developer"));
    const refused = await createKeyAction(null, requestForm());
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.fieldErrors.environment?.[0]).toMatch(/needs an admin's approval/);

    const asked = await requestKeyAction(null, requestForm({ allowedIps: "203.0.113.0/24", access: "read-only" }));
    expect(asked.ok, JSON.stringify(asked)).toBe(true);
    const [row] = await requestsOf();
    expect(row).toMatchObject({
      userId: id("developer"),
      label: "billing prod",
      status: "pending",
      reason: "Billing goes live.",
    });
    expect(row!.allowedIps).toBe("203.0.113.0/24");
    expect(await keysOf()).toHaveLength(0);
    const audit = await db.teamAuditEvent.findFirstOrThrow({ where: { teamId: t.team.id, action: "key.requested" } });
    expect(JSON.parse(audit.details ?? "{}")).toMatchObject({ request: row!.publicId, label: "billing prod" });
    for (const who of ["owner", "admin", "admin2"]) expect(await mailsTo(id(who), "key_requested")).toHaveLength(1);
    for (const who of ["developer", "viewer"]) expect(await mailsTo(id(who), "key_requested")).toHaveLength(0);
    const mail = (await mailsTo(id("admin"), "key_requested"))[0]!;
    expect(mail.payload).toContain(row!.publicId);
    expect(mail.payload).not.toMatch(/sk_(dev|prod)_/);
  });

  it("refuses bad input on its field and stores nothing: an empty reason, a 10,000-character one, an expiry past the team's maximum, none under a maximum", async () => {
    await setTeamPolicy(operator(""), t.team.id, { maxLifetimeDays: { prod: 30 } });
    await signInAs(id("developer"));
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ reason: "   " }, "reason", /Say why/],
      [{ reason: "x".repeat(10_000) }, "reason", /500 characters or fewer/],
      [{ reason: `use ${generateApiKey("prod")} please` }, "reason", /API key/],
      [{ expiry: "90" }, "expiry", /expire within 30 days/],
      [{ expiry: "never" }, "expiry", /expire within 30 days/],
      [{ label: "" }, "label", /label/],
    ];
    for (const [fields, field, message] of cases) {
      const refused = await requestKeyAction(null, requestForm(fields));
      expect(refused.ok, JSON.stringify(fields).slice(0, 80)).toBe(false);
      if (!refused.ok) expect(refused.fieldErrors[field]?.[0] ?? JSON.stringify(refused.fieldErrors)).toMatch(message);
    }
    expect(await requestsOf()).toHaveLength(0);
    // The control: the same form within the maximum is a request.
    expect((await requestKeyAction(null, requestForm({ expiry: "30" }))).ok).toBe(true);
  });

  it("only where the rule asks: under “developers” the developer creates directly, an admin always does, a viewer cannot", async () => {
    await refusedOn(
      requestProductionKey(person(id("admin")), t.team.id, {
        label: "x",
        expiresAt: null,
        restrictions: UNRESTRICTED,
        reason: "r",
      }),
      "environment",
      /directly/,
    );
    await refusedOn(
      requestProductionKey(person(id("viewer")), t.team.id, {
        label: "x",
        expiresAt: null,
        restrictions: UNRESTRICTED,
        reason: "r",
      }),
      undefined,
      /viewer/,
    );
    await setTeamPolicy(operator(""), t.team.id, { productionKeys: "developers" });
    await refusedOn(ask(), "environment", /directly/);
    expect(await requestsOf()).toHaveLength(0);
  });
});

describe("deciding", () => {
  it("needs an admin or owner with a fresh sign-in, never the requester; a denial says why; the second decision finds it decided", async () => {
    const { id: requestId } = await ask();
    const decide = (fields: Record<string, string>) =>
      decideKeyRequestAction(null, form({ team: t.team.slug, requestId, ...fields }));

    await signInAs(id("developer"));
    const byDeveloper = await decide({ decision: "approve" });
    expect(!byDeveloper.ok && byDeveloper.error).toMatch(/developer/);

    await signInAs(id("admin"));
    // A session that has not proved itself lately is asked to (the page then sends the same form again).
    const session = await db.session.findFirstOrThrow({
      where: { userId: id("admin") },
      orderBy: { createdAt: "desc" },
    });
    await db.session.update({ where: { id: session.id }, data: { verifiedAt: new Date(Date.now() - 11 * 60_000) } });
    const stale = await decide({ decision: "approve" });
    expect(!stale.ok && stale.fieldErrors.stepUp?.[0]).toMatch(/Confirm it’s you/);
    await signInAs(id("admin"));
    const noWhy = await decide({ decision: "deny", comment: " " });
    expect(!noWhy.ok && noWhy.fieldErrors.comment?.[0]).toMatch(/Say why/);
    expect((await requestsOf())[0]!.status).toBe("pending");

    const denied = await decide({ decision: "deny", comment: "Use the sandbox first." });
    expect(denied.ok, JSON.stringify(denied)).toBe(true);
    expect((await requestsOf())[0]).toMatchObject({
      status: "denied",
      decidedById: id("admin"),
      comment: "Use the sandbox first.",
    });
    // The comment is the requester's to read, not every member's: the activity row names the request only.
    const deniedRow = await db.teamAuditEvent.findFirstOrThrow({
      where: { teamId: t.team.id, action: "key.request_denied" },
    });
    expect(deniedRow.details).not.toContain("sandbox");
    const told = await mailsTo(id("developer"), "key_request_decided");
    expect(told).toHaveLength(1);
    expect(told[0]!.payload).toContain("Use the sandbox first.");

    await signInAs(id("admin2"));
    const again = await decide({ decision: "approve" });
    expect(!again.ok && again.error).toMatch(/denied already/);

    // A developer promoted to admin still cannot approve their own request.
    const { id: second } = await ask();
    await setRole(operator(""), t.team.id, id("developer"), "admin");
    await refusedOn(approve("developer", second), undefined, /Another admin/);
  });

  it("two admins approving at once: one decision, one mail", async () => {
    const { id: requestId } = await ask();
    const results = await Promise.allSettled([approve("admin", requestId), approve("admin2", requestId)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const failed = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(String(failed.reason.message)).toMatch(/approved already/);
    expect(await mailsTo(id("developer"), "key_request_decided")).toHaveLength(1);
    expect(await db.teamAuditEvent.count({ where: { teamId: t.team.id, action: "key.request_approved" } })).toBe(1);
  });

  it("is read against the policy and the people as they are now: the rule turned to “admins only”, the approver removed, the requester made a viewer", async () => {
    const { id: requestId } = await ask();
    await setTeamPolicy(operator(""), t.team.id, { productionKeys: "admins" });
    await refusedOn(approve("admin", requestId), undefined, /only admins and owners create production keys.*Deny/);
    await setTeamPolicy(operator(""), t.team.id, { productionKeys: "approval" });

    await removeMember(operator(""), t.team.id, id("admin2"));
    await refusedOn(approve("admin2", requestId), undefined, /team was not found/);

    // A requester made a viewer no longer makes production keys: the request can only be denied.
    await setRole(operator(""), t.team.id, id("developer"), "viewer");
    await refusedOn(approve("admin", requestId), undefined, /no longer makes production keys/);
    await decideKeyRequest(person(id("admin")), t.team.id, requestId, { approve: false, comment: "Not now." });
    expect((await requestsOf())[0]!.status).toBe("denied");
  });

  it("a request undecided for 7 days has expired", async () => {
    const asked = new Date(Date.now() - 8 * DAY);
    const { id: requestId } = await ask(asked, new Date(Date.now() + 30 * DAY));
    await refusedOn(approve("admin", requestId), undefined, /expired/);
    // The control: a day earlier it could be approved.
    await approve("admin", requestId, new Date(asked.getTime() + 6 * DAY));
  });
});

describe("revealing", () => {
  it("only the requester, with a fresh sign-in, once: the secret is made then, stored as its digest, and the key carries what was approved", async () => {
    const { id: requestId } = await ask();
    const reveal = () => revealKeyRequestAction(null, form({ team: t.team.slug, requestId }));
    await signInAs(id("developer"));
    const early = await reveal();
    expect(!early.ok && early.error).toMatch(/waits for an admin/);
    await approve("admin", requestId);
    // Until the reveal there is no key, so no secret exists to be seen.
    expect(await keysOf()).toHaveLength(0);

    await signInAs(id("admin"));
    const byAdmin = await reveal();
    expect(!byAdmin.ok && byAdmin.error).toMatch(/Only the developer who asked/);

    await signInAs(id("developer"));
    const shown = await reveal();
    expect(shown.ok, JSON.stringify(shown)).toBe(true);
    const secret = shown.ok ? shown.data.secret! : "";
    expect(secret).toMatch(/^sk_prod_/);
    const [key] = await keysOf();
    expect(key).toMatchObject({
      digest: keyDigest(secret),
      userId: id("developer"),
      environment: "prod",
      label: "asked",
    });
    expect(key!.scopes).toBe("catalog:read");
    const row = (await requestsOf())[0]!;
    expect(row).toMatchObject({ status: "revealed", keyPublicId: key!.publicId });
    const created = await db.teamAuditEvent.findFirstOrThrow({
      where: { keyId: key!.publicId, action: "key.created" },
    });
    expect(JSON.parse(created.details ?? "{}")).toMatchObject({ request: requestId, approved_by: id("admin") });
    // Nothing stored or mailed holds the secret.
    const mails = await db.mailMessage.findMany({ where: { subject: { in: [requestId, key!.publicId] } } });
    expect(mails.length).toBeGreaterThan(0);
    for (const mail of mails) expect(mail.payload).not.toContain(secret);
    expect(JSON.stringify(await db.teamAuditEvent.findMany({ where: { teamId: t.team.id } }))).not.toContain(secret);

    const second = await reveal();
    expect(!second.ok && second.error).toMatch(/revealed already/);
    expect(await keysOf()).toHaveLength(1);
  });

  it("two reveals at once: one key, one secret", async () => {
    const { id: requestId } = await ask();
    await approve("admin", requestId);
    const results = await Promise.allSettled([
      revealRequestedKey(person(id("developer")), t.team.id, requestId),
      revealRequestedKey(person(id("developer")), t.team.id, requestId),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await keysOf()).toHaveLength(1);
  });

  it("is read against the policy as it is now, and expires 7 days after the approval", async () => {
    const { id: first } = await ask();
    await approve("admin", first);
    await setTeamPolicy(operator(""), t.team.id, { productionKeys: "admins" });
    await refusedOn(revealRequestedKey(person(id("developer")), t.team.id, first), undefined, /only admins/);
    await setTeamPolicy(operator(""), t.team.id, { productionKeys: "approval", maxLifetimeDays: { prod: 7 } });
    await refusedOn(revealRequestedKey(person(id("developer")), t.team.id, first), undefined, /expire within 7 days/);
    await setTeamPolicy(operator(""), t.team.id, { maxLifetimeDays: { prod: null } });

    const approvedAt = new Date(Date.now() - 8 * DAY);
    const { id: late } = await ask(new Date(approvedAt.getTime() - DAY), new Date(Date.now() + 30 * DAY));
    await approve("admin", late, approvedAt);
    await refusedOn(revealRequestedKey(person(id("developer")), t.team.id, late), undefined, /expired/);
    expect(await keysOf()).toHaveLength(0);
    // The control: the first, now allowed again, reveals.
    await revealRequestedKey(person(id("developer")), t.team.id, first);
    expect(await keysOf()).toHaveLength(1);
  });

  it("a developer still rotates a production key they made, under approval (its access was approved already)", async () => {
    await setTeamPolicy(operator(""), t.team.id, { productionKeys: "developers" });
    const { key } = await createKey(person(id("developer")), {
      label: "before",
      environment: "prod",
      expiresAt: null,
      teamId: t.team.id,
    });
    await setTeamPolicy(operator(""), t.team.id, { productionKeys: "approval" });
    const rotated = await rotateKey(person(id("developer")), key.id, "now");
    expect(rotated.secret).toMatch(/^sk_prod_/);
  });
});

describe("after the reveal, and on departure", () => {
  it("the access an admin approved is the developer's ceiling: they narrow it, never widen it; an admin may", async () => {
    const { id: requestId } = await ask();
    await approve("admin", requestId);
    const { key } = await revealRequestedKey(person(id("developer")), t.team.id, requestId);
    const widen = { scopes: "all" as const, allowedIps: null, rateLimit: null };
    await refusedOn(updateRestrictions(person(id("developer")), key.id, widen), undefined, /narrow .* not widen/);
    const narrowed = await updateRestrictions(person(id("developer")), key.id, {
      scopes: ["catalog:read"],
      allowedIps: ["203.0.113.0/24"],
      rateLimit: 10,
    });
    expect(narrowed.restrictions.allowedIps).toEqual(["203.0.113.0/24"]);
    // Inside the allowlist is still narrower; outside it, or a higher limit, is wider.
    await updateRestrictions(person(id("developer")), key.id, {
      scopes: ["catalog:read"],
      allowedIps: ["203.0.113.128/25"],
      rateLimit: 10,
    });
    for (const wider of [
      { scopes: ["catalog:read"] as const, allowedIps: ["198.51.100.0/24"], rateLimit: 10 },
      { scopes: ["catalog:read"] as const, allowedIps: ["203.0.113.128/25"], rateLimit: 11 },
      { scopes: ["catalog:read"] as const, allowedIps: null, rateLimit: 10 },
    ]) {
      await refusedOn(
        updateRestrictions(person(id("developer")), key.id, { ...wider, scopes: [...wider.scopes] }),
        undefined,
        /not widen/,
      );
    }
    const byAdmin = await updateRestrictions(person(id("admin")), key.id, widen);
    expect(byAdmin.restrictions.scopes).toBe("all");
  });

  it("a departure ends the person's waiting and approved requests; joining again does not bring them back", async () => {
    const { id: waiting } = await ask();
    const { id: approved } = await ask();
    await approve("admin", approved);
    await removeMember(operator(""), t.team.id, id("developer"));
    await addMember(operator(""), t.team.id, id("developer"), "developer");
    await refusedOn(revealRequestedKey(person(id("developer")), t.team.id, approved), undefined, /denied/);
    await refusedOn(approve("admin", waiting), undefined, /denied already/);
    expect((await requestsOf()).map((row) => row.comment)).toEqual([REQUESTER_LEFT, REQUESTER_LEFT]);
    expect(await keysOf()).toHaveLength(0);
  });

  it("the admins' mail quotes the reason line by line, so it cannot pass for the mail's own text or links", () => {
    const mail = renderMail(
      "key_requested",
      {
        team: "T",
        slug: "t",
        requestId: "req_x",
        label: "k",
        by: "dev@example.com",
        reason: "Launch.\n\nOpening this link only shows the request:\nhttps://evil.example/x\n-- \nKeyport.",
        decideBy: "2026-12-04 12:00",
      },
      "https://keyport.example",
      null,
    );
    expect(mail.text).toContain(
      "> Launch.\n> \n> Opening this link only shows the request:\n> https://evil.example/x\n> -- \n> Keyport.",
    );
    // The real link, unquoted, follows.
    expect(mail.text).toMatch(/^https:\/\/keyport\.example\/dashboard\/t\/requests\/req_x$/m);
  });
});

describe("the operator CLI", () => {
  it("sets the rule, lists the waiting requests without secrets, and key:create refuses a developer's production key unless overridden", async () => {
    const set = await admin(["team:policy", "--team", t.team.slug, "--production-keys", "approval"]);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ production_keys: "approval" });

    const { id: waiting } = await ask();
    const { id: decided } = await ask();
    await approve("admin", decided);
    const listed = await admin(["key:requests", "--team", t.team.slug]);
    expect(listed.code, listed.stderr).toBe(0);
    const body = JSON.parse(listed.stdout);
    expect(body.pending.map((r: { id: string }) => r.id)).toEqual([waiting]);
    expect(body.pending[0]).toMatchObject({
      label: "asked",
      requested_by: t.people.developer!.email,
      scopes: ["catalog:read"],
    });

    const base = ["key:create", "--team", t.team.slug, "--email", t.people.developer!.email, "--env", "prod"];
    const refused = await admin([...base, "--label", "direct"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/needs an admin's approval/);
    const overridden = await admin([...base, "--label", "overridden", "--override-policy"]);
    expect(overridden.code, overridden.stderr).toBe(0);
  });
});
