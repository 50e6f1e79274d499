// Teams from the operator CLI and the rules every change keeps: a team always
// has an owner, no one joins twice, a person owns at most five teams, and a
// departure revokes the leaver's own keys in that team (their next API request
// is refused) while keys others made keep working. Races end in a state the
// roles table allows.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { renderMail } from "@/lib/mail/templates";
import { DomainError } from "@/lib/domain-error";
import { createKey, reportLeak, revokeKey, rotateKey } from "@/lib/keys/lifecycle";
import { createKeySchema } from "@/lib/keys/key.schema";
import { listActivity } from "@/lib/keys/queries";
import { recordDecoyUse } from "@/lib/keys/decoy";
import {
  addMember,
  createTeam,
  deleteTeam,
  LEFT_TEAM_REASON,
  OWNED_TEAMS_MAX,
  removeMember,
  renameTeam,
  setRole,
  TEAM_DELETED_REASON,
} from "@/lib/teams/members";
import { adminInProcess as admin } from "../helpers/admin-in-process";
import { callApi, publicRoutes } from "../helpers/api-fixtures";
import { bareAccount } from "../helpers/bare-account";

const listModels = publicRoutes.find((route) => route.name === "list_models")!;
const tag = () => randomUUID().slice(0, 8);
const person = (who: string) => ({ userId: who, ip: null, userAgent: "Vitest", kind: "person" as const });
const operator = (who: string) => ({ userId: who, ip: null, userAgent: "test", kind: "operator" as const });

async function json(args: string[]) {
  const result = await admin(args);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

async function teamWith(roles: Record<string, "viewer" | "developer" | "admin" | "owner">) {
  const t = tag();
  const people: Record<string, { id: string; email: string }> = {};
  for (const name of Object.keys(roles)) people[name] = await bareAccount(`${name}-${t}@example.com`);
  const [first, ...rest] = Object.keys(roles);
  const team = await createTeam(operator(people[first!]!.id), { name: `Team ${t}` });
  if (roles[first!] !== "owner") throw new Error("the first person is the owner");
  for (const name of rest) await addMember(operator(people[name]!.id), team.id, people[name]!.id, roles[name]!);
  return { team, people };
}

describe("the operator CLI", () => {
  it("makes a team, adds members, changes a role, lists them, makes and lists their keys, removes one", async () => {
    const t = tag();
    const [owner, dev] = [await bareAccount(`owner-${t}@example.com`), await bareAccount(`dev-${t}@example.com`)];
    const made = await json(["team:create", "--name", `Payments ${t}`, "--owner", owner.email]);
    expect(made).toMatchObject({ slug: `payments-${t}`, name: `Payments ${t}`, owner: owner.email });
    expect(await json(["team:add-member", "--team", made.slug, "--email", dev.email, "--role", "viewer"])).toEqual({
      team: made.slug,
      email: dev.email,
      role: "viewer",
    });
    await json(["team:set-role", "--team", made.slug, "--email", dev.email, "--role", "developer"]);
    const members = await json(["team:members", "--team", made.slug]);
    expect(members.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [owner.email, "owner"],
      [dev.email, "developer"],
    ]);

    const created = await admin([
      "key:create",
      "--team",
      made.slug,
      "--email",
      dev.email,
      "--env",
      "dev",
      "--label",
      "ci",
    ]);
    expect(created.code, created.stderr).toBe(0);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^sk_dev_/);
    // The personal team is where --email alone puts a key, as before teams.
    await admin(["key:create", "--email", dev.email, "--env", "dev", "--label", "mine"]);
    const listed = await json(["key:list", "--team", made.slug]);
    expect(listed.map((k: { label: string; owner: string }) => [k.label, k.owner])).toEqual([["ci", dev.email]]);
    expect((await json(["key:list", "--email", dev.email])).map((k: { label: string }) => k.label)).toEqual(["mine"]);
    expect((await callApi(listModels, { headers: { Authorization: `Bearer ${secret}` } })).status).toBe(200);

    const removed = await json(["team:remove-member", "--team", made.slug, "--email", dev.email]);
    expect(removed.revoked_keys).toEqual([listed[0].id]);
    const refused = await callApi(listModels, { headers: { Authorization: `Bearer ${secret}` } });
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe("revoked_api_key");
    expect(await db.apiKey.findUniqueOrThrow({ where: { publicId: listed[0].id } })).toMatchObject({
      revokedReason: LEFT_TEAM_REASON,
    });
  });

  it("refuses bad input with a clear message and changes nothing", async () => {
    const t = tag();
    const owner = await bareAccount(`bad-${t}@example.com`);
    const slug = `bad-${t}`;
    await json(["team:create", "--name", "Bad input", "--owner", owner.email, "--slug", slug]);
    const teamsBefore = await db.team.count();
    const cases: [string[], RegExp][] = [
      [["team:create", "--name", "", "--owner", owner.email], /Give the team a name/],
      [["team:create", "--name", "x".repeat(200), "--owner", owner.email], /at most 64 characters/],
      [["team:create", "--name", "Taken", "--owner", owner.email, "--slug", slug], /That address is taken/],
      [["team:create", "--name", "Odd", "--owner", owner.email, "--slug", "Not_A_Slug"], /lowercase letters/],
      [["team:create", "--name", "Reserved", "--owner", owner.email, "--slug", "keys"], /reserved/],
      [["team:add-member", "--team", slug, "--email", owner.email, "--role", "wizard"], /--role: Use one of viewer/],
      [["team:add-member", "--team", slug, "--email", owner.email, "--role", "viewer"], /already a member/],
      [["team:set-role", "--team", slug, "--email", owner.email, "--role", "admin"], /always has an owner/],
      [["team:remove-member", "--team", slug, "--email", owner.email], /always has an owner/],
      [["team:members", "--team", "no-such-team"], /No team with the slug no-such-team/],
    ];
    for (const [args, message] of cases) {
      const result = await admin(args);
      expect(result.code, args.join(" ")).not.toBe(0);
      expect(result.stderr, args.join(" ")).toMatch(message);
    }
    expect(await db.team.count()).toBe(teamsBefore);
    expect(await db.membership.findMany({ where: { team: { slug } }, select: { role: true } })).toEqual([
      { role: "owner" },
    ]);
  });

  it(`refuses a person's sixth owned team (${OWNED_TEAMS_MAX} besides their personal one)`, async () => {
    const owner = await bareAccount(`many-${tag()}@example.com`);
    for (let i = 0; i < OWNED_TEAMS_MAX; i++) await createTeam(operator(owner.id), { name: "Same name" });
    const slugs = await db.team.findMany({
      where: { memberships: { some: { userId: owner.id } }, personalOfId: null },
    });
    // Proposed from one name, each free: the second is same-name-2, and so on (unless another test took them).
    expect(new Set(slugs.map((team) => team.slug)).size).toBe(OWNED_TEAMS_MAX);
    await expect(createTeam(operator(owner.id), { name: "One too many" })).rejects.toThrow(/already own 5 teams/);
    expect(await db.membership.count({ where: { userId: owner.id } })).toBe(OWNED_TEAMS_MAX + 1);
  });
});

describe("renaming a team", () => {
  it("keeps its slug, and refuses an empty, a 200-character or a key-holding name on its field", async () => {
    const { team, people } = await teamWith({ owner: "owner" });
    const owner = person(people.owner!.id);
    expect(await renameTeam(owner, team.id, "  Billing platform  ")).toBe("Billing platform");
    for (const [name, message] of [
      ["", /Give the team a name/],
      ["x".repeat(200), /at most 64 characters/],
      ["\u202Eevil", /text-direction/],
      ["Acme\u2028\u2028Re-verify: https://evil.example/x", /line separators or invisible/],
      ["Acme\u200b Payments", /line separators or invisible/],
      ["Acme\u061CPayments", /line separators or invisible/],
      ["\u3164\u3164\u3164", /line separators or invisible/],
      ["Acme\u{E0041}\u{E0042}", /line separators or invisible/],
      ["=?UTF-8?B?QWNtZeKAiyBQYXltZW50cw==?=", /encoded mail word/],
    ] as const) {
      const refused = renameTeam(owner, team.id, name);
      await expect(refused).rejects.toThrow(message);
      await expect(refused).rejects.toMatchObject({ options: { field: "name" } });
    }
    expect(await db.team.findUniqueOrThrow({ where: { id: team.id } })).toMatchObject({
      slug: team.slug,
      name: "Billing platform",
    });
  });
});

describe("mail", () => {
  it("tells a person they were added, their role changed, or they were removed; and a team's admins of a production key", async () => {
    const { team, people } = await teamWith({ owner: "owner", admin: "admin" });
    const dev = await bareAccount(`mailed-${tag()}@example.com`);
    await addMember(person(people.owner!.id), team.id, dev.id, "viewer");
    await setRole(person(people.owner!.id), team.id, dev.id, "developer");
    const made = await createKey(person(dev.id), {
      label: "billing",
      environment: "prod",
      expiresAt: null,
      teamId: team.id,
    });
    await createKey(person(dev.id), { label: "scratch", environment: "dev", expiresAt: null, teamId: team.id });
    await removeMember(person(people.admin!.id), team.id, dev.id);

    const mails = async (recipient: string, kind: string) =>
      (await db.mailMessage.findMany({ where: { recipient, kind }, orderBy: { createdAt: "asc" } })).map(
        (mail) => JSON.parse(mail.payload) as Record<string, unknown>,
      );
    expect((await mails(dev.email, "team_membership")).map((data) => [data.change, data.role])).toEqual([
      ["added", "viewer"],
      ["role_changed", "developer"],
      ["removed", null],
    ]);
    // The production key, not the development one, to each admin and owner; never to the person who is not one.
    for (const who of ["owner", "admin"]) {
      expect(await mails(people[who]!.email, "team_key_changed"), who).toEqual([
        expect.objectContaining({ keyId: made.key.id, change: "created", by: dev.email, slug: team.slug }),
      ]);
    }
    const [added] = await mails(dev.email, "team_membership");
    const rendered = renderMail("team_membership", added as never, "https://keys.example.com", null);
    expect(rendered.subject).toBe(`You were added to the team ${team.name}`);
    expect(rendered.text).toContain(`https://keys.example.com/dashboard/${team.slug}`);
  });
});

describe("what the attack review of teams found, fixed", () => {
  it("a slug proposed from a name never starts with personal-", async () => {
    const owner = await bareAccount(`proposal-${tag()}@example.com`);
    const first = await createTeam(operator(owner.id), { name: "Personal stuff" });
    const second = await createTeam(operator(owner.id), { name: "Personal stuff" });
    // "Personal" alone too, twice: its -2 would otherwise start "personal-" (the second attack review).
    const third = await createTeam(operator(owner.id), { name: "Personal" });
    const fourth = await createTeam(operator(owner.id), { name: "Personal" });
    for (const made of [first, second, third, fourth]) {
      expect(made.slug.startsWith("personal"), made.slug).toBe(false);
    }
  });

  it("nobody joins a personal team, and the five-owned-teams cap holds for a promotion too", async () => {
    const [owner, other] = [
      await bareAccount(`cap-${tag()}@example.com`),
      await bareAccount(`cap2-${tag()}@example.com`),
    ];
    const personal = await db.team.findUniqueOrThrow({ where: { personalOfId: owner.id } });
    await expect(addMember(operator(other.id), personal.id, other.id, "viewer")).rejects.toThrow(/owner alone/);
    for (let i = 0; i < OWNED_TEAMS_MAX; i++) await createTeam(operator(other.id), { name: `Other ${i}` });
    const team = await createTeam(operator(owner.id), { name: "One more" });
    await expect(addMember(operator(other.id), team.id, other.id, "owner")).rejects.toThrow(/already owns 5 teams/);
    await addMember(operator(other.id), team.id, other.id, "admin");
    await expect(setRole(person(owner.id), team.id, other.id, "owner")).rejects.toThrow(/already owns 5 teams/);
    expect(
      await db.membership.count({ where: { userId: other.id, role: "owner", team: { personalOfId: null } } }),
    ).toBe(OWNED_TEAMS_MAX);
  });
});

describe("deleting a team", () => {
  it("asks for its address, revokes every key of it, tells and removes every member, and keeps its history", async () => {
    const { team, people } = await teamWith({ owner: "owner", dev: "developer" });
    const key = await createKey(person(people.dev!.id), {
      label: "ci",
      environment: "dev",
      expiresAt: null,
      teamId: team.id,
    });
    const owner = person(people.owner!.id);
    await expect(deleteTeam(owner, team.id, "not-the-slug")).rejects.toMatchObject({ options: { field: "confirm" } });
    expect(await db.membership.count({ where: { teamId: team.id } })).toBe(2); // nothing changed
    const personal = await db.team.findUniqueOrThrow({ where: { personalOfId: people.owner!.id } });
    await expect(deleteTeam(owner, personal.id, personal.slug)).rejects.toThrow(/personal team cannot be deleted/);

    expect(await deleteTeam(owner, team.id, team.slug)).toEqual([key.key.id]);
    expect((await callApi(listModels, { headers: { Authorization: `Bearer ${key.secret}` } })).status).toBe(401);
    expect(await db.membership.count({ where: { teamId: team.id } })).toBe(0);
    expect(await db.apiKey.findUniqueOrThrow({ where: { publicId: key.key.id } })).toMatchObject({
      revokedReason: TEAM_DELETED_REASON,
    });
    const told = await db.mailMessage.findMany({
      where: { kind: "team_membership", subject: { startsWith: `${team.id}:` } },
    });
    expect(
      told
        .filter((mail) => JSON.parse(mail.payload).change === "deleted")
        .map((mail) => mail.recipient)
        .toSorted(),
    ).toEqual([people.owner!.email, people.dev!.email].toSorted());
    // Nobody brings it back: the operator's add-member finds no team (the second attack review).
    const stranger = await bareAccount(`stranger-${tag()}@example.com`);
    await expect(addMember(operator(stranger.id), team.id, stranger.id, "owner")).rejects.toThrow(/not found/);
    expect(await db.membership.count({ where: { teamId: team.id } })).toBe(0);
    // Its slug is never used again.
    await expect(createTeam(operator(people.dev!.id), { name: "Again", slug: team.slug })).rejects.toThrow(/taken/);
  });
});

describe("what the second attack review found, fixed", () => {
  it("a production key's maker is told when another member revokes it or reports it leaked", async () => {
    const { team, people } = await teamWith({ owner: "owner", admin: "admin", maker: "developer", viewer: "viewer" });
    const prod = (label: string) =>
      createKey(person(people.maker!.id), { label, environment: "prod", expiresAt: null, teamId: team.id });
    const [revoked, leaked] = [await prod("revoked by the admin"), await prod("reported by the viewer")];
    await revokeKey(person(people.admin!.id), revoked.key.id, null);
    await reportLeak(person(people.viewer!.id), leaked.key.id);
    const told = await db.mailMessage.findMany({ where: { kind: "key_changed", recipient: people.maker!.email } });
    expect(told.map((mail) => [mail.subject, JSON.parse(mail.payload).change]).toSorted()).toEqual(
      [
        [leaked.key.id, "created"],
        [leaked.key.id, "leaked"],
        [revoked.key.id, "created"],
        [revoked.key.id, "revoked"],
      ].toSorted(),
    );
  });

  it("a leak replacement of a key in a rotation's grace keeps the expiry the key had before the rotation", async () => {
    const { team, people } = await teamWith({ owner: "owner" });
    const owner = person(people.owner!.id);
    const expiresAt = new Date(Date.now() + 90 * 86_400_000);
    const key = await createKey(owner, { label: "g1", environment: "dev", expiresAt, teamId: team.id });
    const rotated = await rotateKey(owner, key.key.id, "1h");
    await revokeKey(owner, rotated.key.id, null);
    const outcome = await reportLeak(owner, key.key.id);
    expect(outcome.replacement?.key.expiresAt?.getTime()).toBe(expiresAt.getTime());
  });

  it("a label holding an encoded mail word is refused on its field", () => {
    const parsed = createKeySchema.safeParse({
      label: "=?UTF-8?B?4oCuZ3BqLmV4ZQ==?=",
      environment: "prod",
      expiry: "never",
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ["label"],
      message: expect.stringMatching(/encoded mail word/),
    });
  });
});

describe("notices about a team's key", () => {
  it("reach the team's admins and owners, not only its maker, and still come once the maker has left", async () => {
    const { team, people } = await teamWith({ owner: "owner", admin: "admin", maker: "developer" });
    const decoy = await createKey(person(people.maker!.id), {
      label: "honeypot",
      environment: "dev",
      expiresAt: null,
      decoy: true,
      teamId: team.id,
    });
    await removeMember(person(people.owner!.id), team.id, people.maker!.id);
    const row = await db.apiKey.findUniqueOrThrow({ where: { publicId: decoy.key.id } });
    await recordDecoyUse(
      { id: row.id, publicId: row.publicId, userId: row.userId },
      { ip: "203.0.113.7", userAgent: "curl/8", route: "list_models" },
    );
    const told = await db.mailMessage.findMany({ where: { kind: "decoy_key_used", subject: decoy.key.id } });
    expect(told.map((mail) => mail.recipient).toSorted()).toEqual(
      [people.admin!.email, people.owner!.email].toSorted(),
    );
  });
});

describe("a departure", () => {
  it("revokes the leaver's own keys in that team only; keys others made, and their personal team's, keep working", async () => {
    const { team, people } = await teamWith({ owner: "owner", leaver: "developer" });
    const mk = (who: string, teamId?: string) =>
      createKey(operator(people[who]!.id), { label: who, environment: "dev", expiresAt: null, teamId });
    const [theirs, ownersKey, personal] = [await mk("leaver", team.id), await mk("owner", team.id), await mk("leaver")];
    const call = async (secret: string) =>
      (await callApi(listModels, { headers: { Authorization: `Bearer ${secret}` } })).status;
    expect([await call(theirs.secret), await call(ownersKey.secret), await call(personal.secret)]).toEqual([
      200, 200, 200,
    ]);

    // Leaving, as the person themselves: no role needed.
    expect((await removeMember(person(people.leaver!.id), team.id, people.leaver!.id)).revoked).toEqual([
      theirs.key.id,
    ]);
    expect([await call(theirs.secret), await call(ownersKey.secret), await call(personal.secret)]).toEqual([
      401, 200, 200,
    ]);
    const audit = await db.teamAuditEvent.findFirstOrThrow({ where: { keyId: theirs.key.id, action: "key.revoked" } });
    expect(JSON.parse(audit.details!)).toEqual({ reason: LEFT_TEAM_REASON });
    expect(await db.membership.count({ where: { teamId: team.id, userId: people.leaver!.id } })).toBe(0);
  });

  it("revokes the replacements the leaver was shown, and leaves those others rotated from the leaver's keys (attack review)", async () => {
    const { team, people } = await teamWith({ owner: "owner", admin: "admin", leaver: "developer" });
    const call = async (secret: string) =>
      (await callApi(listModels, { headers: { Authorization: `Bearer ${secret}` } })).status;
    const inTeam = (who: string, environment: "dev" | "prod") =>
      createKey(person(people[who]!.id), { label: who, environment, expiresAt: null, teamId: team.id });
    // The leaver rotates the owner's development key, and reports the admin's production key leaked.
    const ownersDev = await inTeam("owner", "dev");
    const rotatedByLeaver = await rotateKey(person(people.leaver!.id), ownersDev.key.id, "now");
    const adminsProd = await inTeam("admin", "prod");
    const reported = await reportLeak(person(people.leaver!.id), adminsProd.key.id);
    // Another member's production key: revoked, but no working copy handed to the reporter.
    expect(reported.replacement).toBeNull();
    expect(reported.replacementWithheld).toBe(true);
    // The admin rotates a key the leaver made: that replacement is the admin's.
    const leaversDev = await inTeam("leaver", "dev");
    const rotatedByAdmin = await rotateKey(person(people.admin!.id), leaversDev.key.id, "now");

    await removeMember(person(people.owner!.id), team.id, people.leaver!.id);
    expect(await call(rotatedByLeaver.secret)).toBe(401);
    expect(await call(rotatedByAdmin.secret)).toBe(200);
  });

  it("the last owner can neither leave nor be removed nor demoted", async () => {
    const { team, people } = await teamWith({ owner: "owner", admin: "admin" });
    const owner = people.owner!.id;
    await expect(removeMember(person(owner), team.id, owner)).rejects.toThrow(/last owner/);
    await expect(setRole(person(owner), team.id, owner, "admin")).rejects.toThrow(/always has an owner/);
    // An admin may not touch an owner at all.
    await expect(removeMember(person(people.admin!.id), team.id, owner)).rejects.toThrow(/Your role in this team/);
    expect(
      await db.membership.findMany({ where: { teamId: team.id }, select: { role: true }, orderBy: { role: "asc" } }),
    ).toEqual([{ role: "admin" }, { role: "owner" }]);
  });
});

describe("a team's activity", () => {
  it("is the team's own chain: every change to its keys and members, who made it, and audit:verify --team checks it", async () => {
    const { team, people } = await teamWith({ owner: "owner", admin: "admin", dev: "developer" });
    const made = await createKey(person(people.dev!.id), {
      label: "dev's prod key",
      environment: "prod",
      expiresAt: null,
      teamId: team.id,
    });
    // The admin rotates it: the replacement is the admin's (they were shown its secret).
    const rotated = await rotateKey(person(people.admin!.id), made.key.id, "now");
    expect(await db.apiKey.findUniqueOrThrow({ where: { publicId: rotated.key.id } })).toMatchObject({
      userId: people.admin!.id,
      teamId: team.id,
    });
    await setRole(person(people.owner!.id), team.id, people.dev!.id, "viewer");
    const activity = await listActivity(team);
    expect(
      activity.items.map((entry) => [entry.action, entry.keyId, entry.actorKind, entry.actorEmail]).reverse(),
    ).toEqual([
      ["team.created", null, "operator", people.owner!.email],
      ["team.member_added", null, "operator", people.admin!.email],
      ["team.member_added", null, "operator", people.dev!.email],
      ["key.created", made.key.id, "person", people.dev!.email],
      ["key.rotated", made.key.id, "person", people.admin!.email],
      ["key.created", rotated.key.id, "person", people.admin!.email],
      ["team.role_changed", null, "person", people.owner!.email],
    ]);
    expect(activity.items[0]!.details).toEqual({
      user_id: people.dev!.id,
      email: people.dev!.email,
      from: "developer",
      to: "viewer",
    });
    // The rows are the team's chain, 1 to 7; the members' account chains hold none of them.
    const rows = await db.teamAuditEvent.findMany({ where: { teamId: team.id }, orderBy: { seq: "asc" } });
    expect(rows.map((row) => row.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await db.auditEvent.count({ where: { keyId: { in: [made.key.id, rotated.key.id] } } })).toBe(0);
    const slug = (await db.team.findUniqueOrThrow({ where: { id: team.id } })).slug;
    const verified = await admin(["audit:verify", "--team", slug]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toEqual({ ok: true, team: slug, rows: 7 });

    // Who acted is inside the hash: a row rewritten to name someone else no longer verifies.
    await db.teamAuditEvent.update({ where: { id: rows[5]!.id }, data: { actorId: people.owner!.id } });
    const forged = await admin(["audit:verify", "--team", slug]);
    expect(forged.code).toBe(1);
    expect(forged.stderr).toContain(`team ${slug}`);
    expect(forged.stderr).toContain("row 6 was changed");
    await db.teamAuditEvent.update({ where: { id: rows[5]!.id }, data: { actorId: people.admin!.id } });
    expect((await admin(["audit:verify", "--team", slug])).code).toBe(0);

    // A key's creation cut off the end (the head and its seal put back): the key is named.
    const head = await db.team.findUniqueOrThrow({
      where: { id: team.id },
      select: { auditSeq: true, auditHash: true, auditSeal: true },
    });
    const hidden = await createKey(person(people.admin!.id), {
      label: "hidden",
      environment: "dev",
      expiresAt: null,
      teamId: team.id,
    });
    await db.teamAuditEvent.deleteMany({ where: { teamId: team.id, seq: { gt: head.auditSeq } } });
    await db.team.update({ where: { id: team.id }, data: head });
    const cut = await admin(["audit:verify", "--team", slug]);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toContain(`key ${hidden.key.id} has no "created" row in this team's log`);
  });
});

describe("a team's address, proposed from its name", () => {
  it("three teams of one long name: each at its own address, the proposed one cut to make room for -2 and -3", async () => {
    const t = tag();
    const owner = await bareAccount(`long-${t}@example.com`);
    const name = `Équipe ${t} Données-Paiements-東京-platform-reliability`;
    const slugs = [];
    for (let i = 0; i < 3; i++) slugs.push((await createTeam(person(owner.id), { name })).slug);
    // The name's slug is 54 characters: cut to 40, and to 38 before a suffix.
    const cut = (length: number) =>
      `equipe-${t}-donnees-paiements-platform-reliability`.slice(0, length).replace(/-+$/, "");
    expect(slugs).toEqual([cut(40), `${cut(38)}-2`, `${cut(38)}-3`]);
  });
});

describe("races end in a state the table allows", () => {
  it("two teams of one name made at once: both are made, the second at the next free address", async () => {
    const t = tag();
    const people = [await bareAccount(`same-a-${t}@example.com`), await bareAccount(`same-b-${t}@example.com`)];
    const made = await Promise.all(people.map((who) => createTeam(person(who.id), { name: `Same name ${t}` })));
    expect(made.map((team) => team.slug).toSorted()).toEqual([`same-name-${t}`, `same-name-${t}-2`]);
    // A slug given and taken is still the person's to change (the control: the race above is not taken for it).
    await expect(createTeam(person(people[0]!.id), { name: "Again", slug: `same-name-${t}` })).rejects.toMatchObject({
      message: "That address is taken: choose another.",
      options: { field: "slug" },
    });
  });

  it("the last two owners leaving at once: one leaves, the other stays the owner", async () => {
    const { team, people } = await teamWith({ a: "owner", b: "owner" });
    const results = await Promise.allSettled([
      removeMember(person(people.a!.id), team.id, people.a!.id),
      removeMember(person(people.b!.id), team.id, people.b!.id),
    ]);
    expect(results.map((r) => r.status).toSorted()).toEqual(["fulfilled", "rejected"]);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(DomainError);
    expect(await db.membership.findMany({ where: { teamId: team.id }, select: { role: true } })).toEqual([
      { role: "owner" },
    ]);
  });

  it("two admins removing each other: at most one goes, and the team keeps its owner", async () => {
    const { team, people } = await teamWith({ owner: "owner", a: "admin", b: "admin" });
    const results = await Promise.allSettled([
      removeMember(person(people.a!.id), team.id, people.b!.id),
      removeMember(person(people.b!.id), team.id, people.a!.id),
    ]);
    // The second to run finds its author removed: "not found", as for anyone outside the team.
    expect(results.map((r) => r.status).toSorted()).toEqual(["fulfilled", "rejected"]);
    const left = await db.membership.findMany({ where: { teamId: team.id }, select: { role: true } });
    expect(left.map((m) => m.role).toSorted()).toEqual(["admin", "owner"]);
  });

  it("a role change during a key creation: the key exists only if the role at its commit allowed it", async () => {
    const { team, people } = await teamWith({ owner: "owner", dev: "developer" });
    const dev = people.dev!.id;
    const [created, demoted] = await Promise.allSettled([
      createKey(person(dev), { label: "racing", environment: "prod", expiresAt: null, teamId: team.id }),
      setRole(person(people.owner!.id), team.id, dev, "viewer"),
    ]);
    expect(demoted.status).toBe("fulfilled");
    const keys = await db.apiKey.count({ where: { teamId: team.id, userId: dev } });
    // Either the creation committed first (as a developer: one key), or after the demotion (refused: none).
    expect(keys).toBe(created.status === "fulfilled" ? 1 : 0);
    if (created.status === "rejected") expect(String(created.reason)).toMatch(/Your role in this team \(viewer\)/);
  });
});
