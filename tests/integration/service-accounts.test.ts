// Service accounts and departures that hand keys over: a service account's keys
// outlive any person; removing a member hands the keys the form names to a
// service account (rotated or not) and revokes the rest, in one step the
// activity names; bad names, other teams' service accounts and keys that are
// not the leaver's are refused with nothing changed; roles hold.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { renderMail } from "@/lib/mail/templates";
import { createKey, rotateKey } from "@/lib/keys/lifecycle";
import { createKeySchema } from "@/lib/keys/key.schema";
import { LEFT_TEAM_REASON, removeMember } from "@/lib/teams/members";
import { createServiceAccount, listServiceAccounts, SERVICE_ACCOUNTS_MAX } from "@/lib/teams/service-accounts";
import { adminInProcess as admin } from "../helpers/admin-in-process";
import { callApi, publicRoutes } from "../helpers/api-fixtures";
import { person, refusedOn, tag, teamWith } from "../helpers/team-people";

const listModels = publicRoutes.find((route) => route.name === "list_models")!;
const call = async (secret: string) =>
  (await callApi(listModels, { headers: { Authorization: `Bearer ${secret}` } })).status;

const keyIn = (teamId: string, who: string, environment: "dev" | "prod", label: string, serviceAccountId?: string) =>
  createKey(person(who), { label, environment, expiresAt: null, teamId, serviceAccountId });

async function json(args: string[]) {
  const result = await admin(args);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

describe("a service account", () => {
  it("owns keys that keep working when the member who made them leaves, and a rotation's replacement stays its own", async () => {
    const { team, people } = await teamWith({ owner: "owner", admin: "admin", dev: "developer" });
    const ci = await createServiceAccount(person(people.admin!.id), team.id, "CI runner");
    const prod = await keyIn(team.id, people.admin!.id, "prod", "deploys", ci.id);
    const dev = await keyIn(team.id, people.dev!.id, "dev", "tests", ci.id);
    const own = await keyIn(team.id, people.dev!.id, "dev", "own");
    // The developer rotates the service account's development key: the replacement is still the service account's.
    const rotated = await rotateKey(person(people.dev!.id), dev.key.id, "now");
    expect(rotated.key.serviceAccount).toEqual(ci);

    await removeMember(person(people.owner!.id), team.id, people.admin!.id);
    await removeMember(person(people.owner!.id), team.id, people.dev!.id);
    // Both makers are gone: the service account's keys answer, the developer's own key does not (the control).
    expect([await call(prod.secret), await call(rotated.secret), await call(own.secret)]).toEqual([200, 200, 401]);
    expect(await listServiceAccounts(team.id)).toMatchObject([{ name: "CI runner", keysInUse: 2 }]);
  });

  it("refuses an empty, a 100-character, a taken (in any case) or an invisible name on its field, and changes nothing", async () => {
    const { team, people } = await teamWith({ owner: "owner" });
    const owner = person(people.owner!.id);
    await createServiceAccount(owner, team.id, "Billing backend");
    for (const [name, message] of [
      ["", /Give the service account a name/],
      ["   ", /Give the service account a name/],
      ["x".repeat(100), /at most 64 characters for the service account's name/],
      ["billing BACKEND", /already has a service account of that name/],
      ["ｂｉｌｌｉｎｇ backend", /already has a service account of that name/],
      ["CI\u200b", /line separators or invisible/],
    ] as const) {
      await refusedOn(createServiceAccount(owner, team.id, name), "name", message);
    }
    expect((await listServiceAccounts(team.id)).map((a) => a.name)).toEqual(["Billing backend"]);
  });

  it("is made by admins and owners only, never in a personal team; its production keys take an admin", async () => {
    const { team, people } = await teamWith({ owner: "owner", admin: "admin", dev: "developer", viewer: "viewer" });
    for (const who of ["dev", "viewer"]) {
      await expect(createServiceAccount(person(people[who]!.id), team.id, `by ${who}`)).rejects.toThrow(
        /does not allow this: “create service accounts/,
      );
    }
    const bot = await createServiceAccount(person(people.admin!.id), team.id, "bot");
    // A developer gives it a development key, not a production one; an admin may.
    await keyIn(team.id, people.dev!.id, "dev", "dev for bot", bot.id);
    await expect(keyIn(team.id, people.dev!.id, "prod", "prod for bot", bot.id)).rejects.toThrow(
      /\(developer\) does not allow this: “rename, rotate, revoke and edit the access of any production key/,
    );
    const prod = await keyIn(team.id, people.admin!.id, "prod", "prod for bot", bot.id);
    // Nor may the developer change it, though they may their own production keys (the control).
    await expect(rotateKey(person(people.dev!.id), prod.key.id, "now")).rejects.toThrow(/\(developer\)/);
    const mine = await keyIn(team.id, people.dev!.id, "prod", "mine");
    await rotateKey(person(people.dev!.id), mine.key.id, "now");
    // Another team's service account, or one of no team, is a field error.
    const other = await teamWith({ owner: "owner" });
    const theirs = await createServiceAccount(person(other.people.owner!.id), other.team.id, "bot");
    await refusedOn(
      keyIn(team.id, people.admin!.id, "dev", "x", theirs.id),
      "serviceAccount",
      /one of this team's service accounts/,
    );
    // A personal team has none.
    const personal = await db.team.findUniqueOrThrow({ where: { personalOfId: people.owner!.id } });
    await refusedOn(createServiceAccount(person(people.owner!.id), personal.id, "bot"), "name", /personal team/);
    expect(await db.apiKey.count({ where: { teamId: team.id, label: "x" } })).toBe(0);
  });

  it(`is one of at most ${SERVICE_ACCOUNTS_MAX} in a team`, async () => {
    const { team, people } = await teamWith({ owner: "owner" });
    await db.serviceAccount.createMany({
      data: Array.from({ length: SERVICE_ACCOUNTS_MAX }, (_, i) => ({
        teamId: team.id,
        name: `sa ${i}`,
        nameKey: `sa ${i}`,
      })),
    });
    await refusedOn(createServiceAccount(person(people.owner!.id), team.id, "one more"), "name", /at most 50/);
  });

  it("comes from the dashboard's form as its id, and 'self' or nothing means the person", () => {
    const form = { label: "x", environment: "dev", expiry: "never" };
    expect(createKeySchema.parse({ ...form, serviceAccount: "abc123" }).serviceAccountId).toBe("abc123");
    expect(createKeySchema.parse({ ...form, serviceAccount: "self" }).serviceAccountId).toBeUndefined();
    expect(createKeySchema.parse(form).serviceAccountId).toBeUndefined();
  });
});

describe("a departure that hands keys over", () => {
  it("hands one key over rotated and one as it is, revokes the rest, and the activity names each", async () => {
    const { team, people } = await teamWith({ owner: "owner", admin: "admin", leaver: "developer" });
    const ci = await createServiceAccount(person(people.owner!.id), team.id, "CI");
    const [rotateMe, keepMe, revokeMe] = [
      await keyIn(team.id, people.leaver!.id, "prod", "deploy"),
      await keyIn(team.id, people.leaver!.id, "dev", "nightly"),
      await keyIn(team.id, people.leaver!.id, "dev", "laptop"),
    ];
    expect(await call(keepMe.secret)).toBe(200);
    const before = await db.apiKey.findUniqueOrThrow({ where: { publicId: keepMe.key.id } });
    // Its usage so far, as the usage writer keeps it (by the key's row id).
    const usedBefore = `req_${tag()}`;
    await db.usageEvent.create({
      data: {
        requestId: usedBefore,
        keyId: before.id,
        userId: people.leaver!.id,
        route: "list_models",
        status: 200,
        latencyMs: 3,
        ip: "203.0.113.5",
        createdAt: new Date(),
      },
    });

    const departure = await removeMember(person(people.admin!.id), team.id, people.leaver!.id, {
      handovers: [
        { publicId: rotateMe.key.id, serviceAccountId: ci.id, rotate: "24h" },
        { publicId: keepMe.key.id, serviceAccountId: ci.id, rotate: null },
      ],
    });
    expect(departure.revoked).toEqual([revokeMe.key.id]);
    expect(departure.handedOver.map((h) => [h.key, h.serviceAccount.name, h.replacement !== null])).toEqual([
      [rotateMe.key.id, "CI", true],
      [keepMe.key.id, "CI", false],
    ]);
    const replacement = departure.handedOver[0]!.replacement!;
    expect(replacement.key.serviceAccount).toEqual(ci);
    // The next request: handed keys (the rotated one in its grace, and its replacement) answer; the rest is revoked.
    expect([await call(rotateMe.secret), await call(replacement.secret), await call(keepMe.secret)]).toEqual([
      200, 200, 200,
    ]);
    const refused = await callApi(listModels, { headers: { Authorization: `Bearer ${revokeMe.secret}` } });
    expect([refused.status, refused.json.error.code]).toEqual([401, "revoked_api_key"]);
    // The key handed over as it is: the same row (its usage and history), now the service account's.
    const after = await db.apiKey.findUniqueOrThrow({ where: { publicId: keepMe.key.id } });
    expect(after).toMatchObject({ id: before.id, digest: before.digest, serviceAccountId: ci.id, revokedAt: null });
    // (The API call above may have been written meanwhile too: the row of interest is the one from before.)
    expect((await db.usageEvent.findUniqueOrThrow({ where: { requestId: usedBefore } })).keyId).toBe(after.id);
    const old = await db.apiKey.findUniqueOrThrow({ where: { publicId: rotateMe.key.id } });
    expect(old.expiresAt!.getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);

    const rows = await db.teamAuditEvent.findMany({ where: { teamId: team.id }, orderBy: { seq: "asc" } });
    const tail = rows.slice(-6).map((row) => [row.action, row.keyId, row.actorId]);
    expect(tail).toEqual([
      ["key.transferred", rotateMe.key.id, people.admin!.id],
      ["key.rotated", rotateMe.key.id, people.admin!.id],
      ["key.created", replacement.key.id, people.admin!.id],
      ["key.transferred", keepMe.key.id, people.admin!.id],
      ["key.revoked", revokeMe.key.id, people.admin!.id],
      ["team.member_removed", null, people.admin!.id],
    ]);
    expect(JSON.parse(rows.at(-3)!.details!)).toMatchObject({
      from_email: people.leaver!.email,
      service_account: ci,
      rotated: false,
    });
    expect(JSON.parse(rows.at(-1)!.details!)).toMatchObject({ revoked_keys: 1, transferred_keys: 2 });
    expect(JSON.parse(rows.at(-2)!.details!)).toEqual({ reason: LEFT_TEAM_REASON });
    // The person who left is told which of their keys go on working, and not to use them.
    const told = await db.mailMessage.findFirstOrThrow({
      where: { kind: "team_membership", recipient: people.leaver!.email, period: { startsWith: "removed:" } },
    });
    const mail = renderMail("team_membership", JSON.parse(told.payload), "https://keys.example.com", null);
    expect(mail.text).toContain(
      "2 keys you made in that team were handed to its service accounts, or stay with them, and keep working for the team; do not use them any more. The other keys you made there were revoked",
    );
  });

  it("changes nothing for a service account of another team, a key that is not theirs, or a rotation by the leaver", async () => {
    const { team, people } = await teamWith({ owner: "owner", leaver: "developer", other: "developer" });
    const ci = await createServiceAccount(person(people.owner!.id), team.id, "CI");
    const elsewhere = await teamWith({ owner: "owner" });
    const foreign = await createServiceAccount(person(elsewhere.people.owner!.id), elsewhere.team.id, "CI");
    const theirs = await keyIn(team.id, people.leaver!.id, "dev", "theirs");
    const notTheirs = await keyIn(team.id, people.other!.id, "dev", "someone else's");
    const owner = person(people.owner!.id);
    const field = (key: string) => `handover.${key}`;

    await refusedOn(
      removeMember(owner, team.id, people.leaver!.id, {
        handovers: [{ publicId: theirs.key.id, serviceAccountId: foreign.id, rotate: null }],
      }),
      field(theirs.key.id),
      /one of this team's service accounts/,
    );
    await refusedOn(
      removeMember(owner, team.id, people.leaver!.id, {
        handovers: [{ publicId: notTheirs.key.id, serviceAccountId: ci.id, rotate: null }],
      }),
      field(notTheirs.key.id),
      /not one of this member's keys/,
    );
    // Leaving: a rotation would show the leaver the new secret.
    await refusedOn(
      removeMember(person(people.leaver!.id), team.id, people.leaver!.id, {
        handovers: [{ publicId: theirs.key.id, serviceAccountId: ci.id, rotate: "24h" }],
      }),
      field(theirs.key.id),
      /rotation now would show you the new one/,
    );
    // Nothing changed: both are members, both keys answer, owned by no service account.
    expect(await db.membership.count({ where: { teamId: team.id } })).toBe(3);
    expect([await call(theirs.secret), await call(notTheirs.secret)]).toEqual([200, 200]);
    expect(await db.apiKey.count({ where: { teamId: team.id, serviceAccountId: { not: null } } })).toBe(0);

    // The leaver may hand a development key over as it is (the control).
    const left = await removeMember(person(people.leaver!.id), team.id, people.leaver!.id, {
      handovers: [{ publicId: theirs.key.id, serviceAccountId: ci.id, rotate: null }],
    });
    expect(left.handedOver.map((h) => h.key)).toEqual([theirs.key.id]);
    expect(await call(theirs.secret)).toBe(200);
  });

  it("needs the role that manages a service account's production keys: a developer leaving cannot hand one over", async () => {
    const { team, people } = await teamWith({ owner: "owner", leaver: "developer" });
    const ci = await createServiceAccount(person(people.owner!.id), team.id, "CI");
    const prod = await keyIn(team.id, people.leaver!.id, "prod", "prod");
    await expect(
      removeMember(person(people.leaver!.id), team.id, people.leaver!.id, {
        handovers: [{ publicId: prod.key.id, serviceAccountId: ci.id, rotate: null }],
      }),
    ).rejects.toThrow(/\(developer\) does not allow this/);
    expect(await call(prod.secret)).toBe(200);
    // The owner removing them may (the control).
    await removeMember(person(people.owner!.id), team.id, people.leaver!.id, {
      handovers: [{ publicId: prod.key.id, serviceAccountId: ci.id, rotate: null }],
    });
    expect(await call(prod.secret)).toBe(200);
  });
});

describe("a departure, for the service accounts' keys the leaver knows (attack review)", () => {
  it("keeps them working unless told; rotates one (its replacement stays the service account's) and revokes another", async () => {
    const { team, people } = await teamWith({ owner: "owner", leaver: "developer" });
    const ci = await createServiceAccount(person(people.owner!.id), team.id, "CI");
    // Made by the leaver for the service account, and one of the service account's keys the leaver rotated.
    const [made, kept, other] = [
      await keyIn(team.id, people.leaver!.id, "dev", "made", ci.id),
      await keyIn(team.id, people.leaver!.id, "dev", "kept", ci.id),
      await keyIn(team.id, people.owner!.id, "dev", "other", ci.id),
    ];
    const rotatedByLeaver = await rotateKey(person(people.leaver!.id), other.key.id, "now");
    const departure = await removeMember(person(people.owner!.id), team.id, people.leaver!.id, {
      keys: [
        { publicId: made.key.id, action: "rotate", grace: "24h" },
        { publicId: rotatedByLeaver.key.id, action: "revoke" },
      ],
    });
    expect(departure.kept).toEqual([kept.key.id]);
    expect(departure.rotated.map((r) => r.key)).toEqual([made.key.id]);
    const replacement = departure.rotated[0]!.replacement;
    expect(replacement.key.serviceAccount).toEqual(ci);
    expect(departure.revoked).toEqual([rotatedByLeaver.key.id]);
    // The rotated key works through its grace, its replacement too; the revoked one does not; the kept one does.
    expect([
      await call(made.secret),
      await call(replacement.secret),
      await call(rotatedByLeaver.secret),
      await call(kept.secret),
    ]).toEqual([200, 200, 401, 200]);
    const old = await db.apiKey.findUniqueOrThrow({ where: { publicId: made.key.id } });
    expect(old.expiresAt!.getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);
    const removed = await db.teamAuditEvent.findFirstOrThrow({
      where: { teamId: team.id, action: "team.member_removed" },
      orderBy: { seq: "desc" },
    });
    expect(JSON.parse(removed.details!)).toMatchObject({
      rotated_service_account_keys: 1,
      known_service_account_keys_kept: 1,
    });
  });

  it("lets a developer who leaves neither rotate one nor revoke a production one; a key they do not know is refused", async () => {
    const { team, people } = await teamWith({ owner: "owner", leaver: "developer" });
    const ci = await createServiceAccount(person(people.owner!.id), team.id, "CI");
    const dev = await keyIn(team.id, people.leaver!.id, "dev", "dev", ci.id);
    const prod = await keyIn(team.id, people.owner!.id, "prod", "prod", ci.id);
    const leaving = person(people.leaver!.id);
    await refusedOn(
      removeMember(leaving, team.id, people.leaver!.id, { keys: [{ publicId: dev.key.id, action: "rotate" }] }),
      `handover.${dev.key.id}`,
      /rotation now would show you the new one/,
    );
    // The owner's production key of the service account is not one the leaver knows.
    await refusedOn(
      removeMember(leaving, team.id, people.leaver!.id, { keys: [{ publicId: prod.key.id, action: "revoke" }] }),
      `handover.${prod.key.id}`,
      /not one of this member's keys/,
    );
    expect([await call(dev.secret), await call(prod.secret)]).toEqual([200, 200]);
    expect(await db.membership.count({ where: { teamId: team.id } })).toBe(2);
  });
});

describe("the operator CLI", () => {
  it("makes and lists service accounts, makes a key for one, and removes a member handing every key over unrotated", async () => {
    const { team, people } = await teamWith({ owner: "owner", leaver: "developer" });
    const slug = (await db.team.findUniqueOrThrow({ where: { id: team.id } })).slug;
    expect(await json(["service-account:create", "--team", slug, "--name", "Partner sync"])).toMatchObject({
      team: slug,
      name: "Partner sync",
    });
    const made = await admin([
      "key:create",
      "--team",
      slug,
      "--service-account",
      "partner SYNC",
      "--env",
      "prod",
      "--label",
      "sync",
    ]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout.trim()).toMatch(/^sk_prod_/);
    expect(await call(made.stdout.trim())).toBe(200);
    const listed = await json(["service-account:list", "--team", slug]);
    expect(listed.service_accounts).toMatchObject([{ name: "Partner sync", keys_in_use: 1 }]);

    const [a, b] = [
      await keyIn(team.id, people.leaver!.id, "dev", "a"),
      await keyIn(team.id, people.leaver!.id, "prod", "b"),
    ];
    // A decoy is not handed over, and does not stop the removal (review: the whole removal was refused).
    const decoy = await createKey(person(people.leaver!.id), {
      label: "trap",
      environment: "dev",
      expiresAt: null,
      teamId: team.id,
      decoy: true,
    });
    const removed = await json([
      "team:remove-member",
      "--team",
      slug,
      "--email",
      people.leaver!.email,
      "--transfer-to",
      "Partner sync",
    ]);
    expect(removed).toMatchObject({ revoked_keys: [decoy.key.id], transferred_to: "Partner sync", rotated: false });
    expect(removed.transferred_keys.toSorted()).toEqual([a.key.id, b.key.id].toSorted());
    expect(removed.note).toMatch(/not rotated/);
    expect([await call(a.secret), await call(b.secret)]).toEqual([200, 200]);

    // Bad input: no such service account, or one without --team; nothing changes.
    for (const [args, message] of [
      [
        ["team:remove-member", "--team", slug, "--email", people.owner!.email, "--transfer-to", "nobody"],
        /no service account named/,
      ],
      [["key:create", "--service-account", "Partner sync", "--env", "dev", "--label", "x"], /needs --team/],
      [["service-account:create", "--team", slug, "--name", "PARTNER sync"], /already has a service account/],
      [["service-account:create", "--team", slug, "--name", ""], /Give the service account a name/],
    ] as const) {
      const result = await admin([...args]);
      expect(result.code, args.join(" ")).not.toBe(0);
      expect(result.stderr, args.join(" ")).toMatch(message);
    }
    expect(await db.membership.count({ where: { teamId: team.id } })).toBe(1);
  });
});
