// "Two-factor required" (lib/teams/policies.ts): turning it on, who it mails,
// and what a member without two-factor may still do, on every path: the
// dashboard's actions through the real wrapper, the domain, the operator CLI.
// A held-back member sees the key list and may report a key leaked (no
// replacement); their keys keep working; service accounts are not people.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { createKey, reportLeak } from "@/lib/keys/lifecycle";
import { memberById } from "@/lib/teams/membership";
import { setTeamPolicy } from "@/lib/teams/policy-store";
import { createServiceAccount } from "@/lib/teams/service-accounts";
import { inviteMemberAction } from "@/lib/web/actions/invitations";
import { requestKeyAction } from "@/lib/web/actions/key-requests";
import { createKeyAction, renameKeyAction, reportLeakAction, rotateKeyAction } from "@/lib/web/actions/keys";
import { setTeamPolicyAction } from "@/lib/web/actions/teams";
import { adminInProcess as admin } from "../helpers/admin-in-process";
import { actAs as signInAs, formOf as form } from "../helpers/next-request";
import { operator, person, refusedOn, teamWith } from "../helpers/team-people";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

let t: Awaited<ReturnType<typeof teamWith>>;
const id = (name: string) => t.people[name]!.id;
/** Two-factor on for this account (how it was set up is the two-factor tests' business). */
const withTwoFactor = (name: string) =>
  db.user.update({ where: { id: id(name) }, data: { totpEnabledAt: new Date() } });
/** The settings form, ticked or not, drawn with two-factor shown on or off (the form's hidden field). */
const policyForm = (requireTwoFactor: boolean, shown?: "on" | "off") =>
  form({
    team: t.team.slug,
    productionKeys: "developers",
    maxLifetimeDaysProd: "",
    maxLifetimeDaysDev: "",
    ...(requireTwoFactor ? { requireTwoFactor: "on" } : {}),
    ...(shown ? { twoFactorShown: shown } : {}),
  });

beforeEach(async () => {
  t = await teamWith({ owner: "owner", admin: "admin", developer: "developer", viewer: "viewer" });
});

describe("turning it on", () => {
  it("only someone with two-factor requires it; it is audited and mails each member without it, once", async () => {
    await signInAs(id("owner"));
    const refused = await setTeamPolicyAction(null, policyForm(true));
    expect(!refused.ok && refused.fieldErrors.requireTwoFactor?.[0]).toMatch(/for your own account first/);
    expect((await db.team.findUniqueOrThrow({ where: { id: t.team.id } })).requireTwoFactor).toBe(false);

    await withTwoFactor("owner");
    await withTwoFactor("admin");
    const on = await setTeamPolicyAction(null, policyForm(true));
    expect(on.ok, JSON.stringify(on)).toBe(true);
    const audit = await db.teamAuditEvent.findFirstOrThrow({
      where: { teamId: t.team.id, action: "team.policy_changed" },
    });
    expect(JSON.parse(audit.details ?? "{}")).toEqual({ require_two_factor: { from: false, to: true } });
    const mailed = await db.mailMessage.findMany({ where: { kind: "team_two_factor_required" } });
    const to = mailed.filter((mail) => mail.subject.startsWith(`${t.team.id}:`)).map((mail) => mail.userId);
    expect(to.toSorted()).toEqual([id("developer"), id("viewer")].toSorted());
    // Saving the form again with it still on changes nothing and mails no one again.
    expect((await setTeamPolicyAction(null, policyForm(true))).ok).toBe(true);
    expect(await db.mailMessage.count({ where: { kind: "team_two_factor_required", userId: id("developer") } })).toBe(
      1,
    );
  });

  it("turning it off takes a form that showed it on, and a fresh sign-in; a personal team cannot require it", async () => {
    await withTwoFactor("owner");
    await setTeamPolicy(operator(""), t.team.id, { requireTwoFactor: true });
    const required = async () => (await db.team.findUniqueOrThrow({ where: { id: t.team.id } })).requireTwoFactor;
    await signInAs(id("owner"));
    // A page drawn before it was turned on (it showed it off) saves the rest and leaves it on.
    const stale = await setTeamPolicyAction(null, policyForm(false, "off"));
    expect(stale.ok, JSON.stringify(stale)).toBe(true);
    expect(await required()).toBe(true);
    // One that showed it on turns it off, after the person proves it is them.
    const session = await db.session.findFirstOrThrow({
      where: { userId: id("owner") },
      orderBy: { createdAt: "desc" },
    });
    await db.session.update({ where: { id: session.id }, data: { verifiedAt: new Date(Date.now() - 11 * 60_000) } });
    const unproved = await setTeamPolicyAction(null, policyForm(false, "on"));
    expect(!unproved.ok && unproved.fieldErrors.stepUp?.[0]).toMatch(/Confirm it’s you/);
    expect(await required()).toBe(true);
    await signInAs(id("owner"));
    expect((await setTeamPolicyAction(null, policyForm(false, "on"))).ok).toBe(true);
    expect(await required()).toBe(false);

    const personal = await db.team.findFirstOrThrow({ where: { personalOfId: id("owner") } });
    await refusedOn(
      setTeamPolicy(person(id("owner")), personal.id, { requireTwoFactor: true }),
      "requireTwoFactor",
      /personal team/,
    );
  });

  it("the operator sets it from the CLI, and the CLI prints it", async () => {
    const set = await admin(["team:policy", "--team", t.team.slug, "--require-two-factor", "on"]);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ require_two_factor: "on" });
    const bad = await admin(["team:policy", "--team", t.team.slug, "--require-two-factor", "yes"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/on or off/);
  });
});

describe("a member without two-factor, while it is required", () => {
  it("sees the key list and reports a key leaked without a replacement; every other change is refused; their keys keep working", async () => {
    const { key: own } = await createKey(person(id("developer")), {
      label: "own dev",
      environment: "dev",
      expiresAt: null,
      teamId: t.team.id,
    });
    const { key: second } = await createKey(person(id("developer")), {
      label: "second dev",
      environment: "dev",
      expiresAt: null,
      teamId: t.team.id,
    });
    await setTeamPolicy(operator(""), t.team.id, { requireTwoFactor: true });
    expect((await memberById(id("developer"), t.team.id))?.twoFactorMissing).toBe(true);

    await signInAs(id("developer"));
    const refusals = [
      await createKeyAction(null, form({ team: t.team.slug, label: "new", environment: "dev", expiry: "never" })),
      await renameKeyAction(null, form({ keyId: own.id, label: "renamed" })),
      await rotateKeyAction(null, form({ keyId: own.id, grace: "now" })),
      await requestKeyAction(
        null,
        form({ team: t.team.slug, label: "p", environment: "prod", expiry: "90", reason: "why" }),
      ),
    ];
    for (const result of refusals)
      expect(!result.ok && result.error, JSON.stringify(result)).toMatch(/requires two-factor/);
    // The admin without two-factor cannot run the team either.
    await signInAs(id("admin"));
    const invite = await inviteMemberAction(null, form({ team: t.team.slug, email: "x@example.com", role: "viewer" }));
    expect(!invite.ok && invite.error).toMatch(/requires two-factor/);

    // Nothing changed, and the key still works.
    const row = await db.apiKey.findUniqueOrThrow({ where: { publicId: own.id } });
    expect(row).toMatchObject({ label: "own dev", revokedAt: null, successorId: null });

    // Reporting a key leaked stops it at once, and hands the held-back member no new secret.
    await signInAs(id("developer"));
    const leaked = await reportLeakAction(null, form({ keyId: own.id }));
    expect(leaked.ok, JSON.stringify(leaked)).toBe(true);
    expect(leaked.ok && leaked.data.secret).toBeFalsy();
    expect((await db.apiKey.findUniqueOrThrow({ where: { publicId: own.id } })).revokedAt).not.toBeNull();
    expect(await db.apiKey.count({ where: { teamId: t.team.id } })).toBe(2);

    // The control: with two-factor on, the same member is let back in (and a leak report replaces).
    await withTwoFactor("developer");
    const made = await createKeyAction(
      null,
      form({ team: t.team.slug, label: "new", environment: "dev", expiry: "never" }),
    );
    expect(made.ok, JSON.stringify(made)).toBe(true);
    const replaced = await reportLeak(person(id("developer")), second.id);
    expect(replaced.replacement?.secret).toMatch(/^sk_dev_/);
  });

  it("does not touch service accounts' keys, nor the operator's CLI", async () => {
    await withTwoFactor("admin");
    await createServiceAccount(operator(""), t.team.id, "deployer");
    await setTeamPolicy(operator(""), t.team.id, { requireTwoFactor: true });
    const made = await admin([
      "key:create",
      "--team",
      t.team.slug,
      "--service-account",
      "deployer",
      "--env",
      "dev",
      "--label",
      "ci",
    ]);
    expect(made.code, made.stderr).toBe(0);
    // An admin with two-factor manages the service account's keys as before.
    const { key } = await createKey(person(id("admin")), {
      label: "robot",
      environment: "dev",
      expiresAt: null,
      teamId: t.team.id,
      serviceAccountId: (await db.serviceAccount.findFirstOrThrow({ where: { teamId: t.team.id } })).id,
    });
    expect(key.id).toMatch(/^key_/);
    // A held-back member's own key made by the operator in their name: the operator is not held back.
    await refusedOn(
      createKey(person(id("developer")), { label: "x", environment: "dev", expiresAt: null, teamId: t.team.id }),
      undefined,
      /requires two-factor/,
    );
    const byOperator = await createKey(operator(id("developer")), {
      label: "by the operator",
      environment: "dev",
      expiresAt: null,
      teamId: t.team.id,
    });
    expect(byOperator.secret).toMatch(/^sk_dev_/);
  });
});
