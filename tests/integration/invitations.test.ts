// Invitations by mail: an admin invites an address with a role; the link works
// for 7 days, once, and only for a session of that address (another gets "not
// found"); a withdrawn link says so; two acceptances at once make one
// membership; the limits hold; the answer is the same whether the address has
// an account; bad input changes nothing.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { renderMail } from "@/lib/mail/templates";
import { acceptInvitation, findInvitation, INVITATION_WITHDRAWN } from "@/lib/teams/invitation-links";
import {
  INVITATIONS_PER_HOUR,
  inviteMember,
  listInvitations,
  PENDING_INVITATIONS_MAX,
  resendInvitation,
  revokeInvitation,
} from "@/lib/teams/invitations";
import { addMember, removeMember, setRole } from "@/lib/teams/members";
import { adminInProcess as admin } from "../helpers/admin-in-process";
import { bareAccount } from "../helpers/bare-account";
import { mailedInvitationToken as mailedToken } from "../helpers/invitation-mail";
import { recordQueries, type RecordedQuery } from "../helpers/recorded-queries";
import { operator, person, refusedOn, tag, teamWith } from "../helpers/team-people";

describe("an invitation", () => {
  it("mails a link that lets only that address's session join, with the role given, once", async () => {
    const { team, people } = await teamWith({ owner: "owner", admin: "admin" });
    const invitee = await bareAccount(`invitee-${tag()}@example.com`);
    const stranger = await bareAccount(`stranger-${tag()}@example.com`);
    const invited = await inviteMember(person(people.admin!.id), team.id, {
      email: `  ${invitee.email.toUpperCase()} `,
      role: "developer",
    });
    expect(invited).toMatchObject({ email: invitee.email, role: "developer" });
    expect(invited.expiresAt.getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000);
    // The mail: the team, the role, the inviter, and the link; only its token's digest is stored.
    const row = await db.mailMessage.findFirstOrThrow({ where: { kind: "team_invitation", recipient: invitee.email } });
    const token = await mailedToken(invitee.email);
    const mail = renderMail(
      "team_invitation",
      JSON.parse(row.payload),
      "https://keys.example.com",
      `https://x/invitations/${token}`,
    );
    expect(mail.subject).toBe(`You are invited to the team ${team.name} on Keyport`);
    expect(mail.text).toContain(
      `${people.admin!.email} invites you to join the Keyport team "${team.name}" as developer`,
    );
    expect(JSON.stringify(await db.invitation.findMany({ where: { teamId: team.id } }))).not.toContain(token);

    // Another address's session: not found, and nothing spent.
    await refusedOn(acceptInvitation(token, stranger, null, null), undefined, /not found/);
    expect((await findInvitation(token)).state).toBe("pending");
    // The invited address's session joins, as a developer; the activity says how.
    expect(await acceptInvitation(token, invitee, "203.0.113.4", "Vitest")).toBe(team.slug);
    expect(
      await db.membership.findUnique({ where: { teamId_userId: { teamId: team.id, userId: invitee.id } } }),
    ).toMatchObject({
      role: "developer",
    });
    const added = await db.teamAuditEvent.findFirstOrThrow({
      where: { teamId: team.id, action: "team.member_added" },
      orderBy: { seq: "desc" },
    });
    expect(JSON.parse(added.details!)).toMatchObject({ email: invitee.email, role: "developer", via: "invitation" });
    expect(added.actorId).toBe(invitee.id);
    // Once: the link is used (another address is still told it was not found); the list no longer shows it.
    expect((await findInvitation(token)).state).toBe("used");
    await refusedOn(acceptInvitation(token, stranger, null, null), undefined, /not found/);
    expect(await listInvitations(team.id)).toEqual([]);
  });

  it("accepted twice at once by the same person's two browsers makes one membership", async () => {
    const { team, people } = await teamWith({ owner: "owner" });
    const invitee = await bareAccount(`twice-${tag()}@example.com`);
    await inviteMember(person(people.owner!.id), team.id, { email: invitee.email, role: "viewer" });
    const token = await mailedToken(invitee.email);
    const results = await Promise.allSettled([
      acceptInvitation(token, invitee, null, null),
      acceptInvitation(token, invitee, null, null),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
    expect(await db.membership.count({ where: { teamId: team.id, userId: invitee.id } })).toBe(1);
    expect(
      await db.teamAuditEvent.count({
        where: { teamId: team.id, action: "team.member_added", details: { contains: invitee.email } },
      }),
    ).toBe(1);
  });

  it("withdrawn, its link says so; sent again, the old link stops and the new one works", async () => {
    const { team, people } = await teamWith({ owner: "owner" });
    const [a, b] = [await bareAccount(`a-${tag()}@example.com`), await bareAccount(`b-${tag()}@example.com`)];
    const first = await inviteMember(person(people.owner!.id), team.id, { email: a.email, role: "viewer" });
    const tokenA = await mailedToken(a.email);
    await revokeInvitation(person(people.owner!.id), team.id, first.id);
    expect((await findInvitation(tokenA)).state).toBe("withdrawn");
    await refusedOn(acceptInvitation(tokenA, a, null, null), undefined, new RegExp(INVITATION_WITHDRAWN.slice(0, 30)));
    // Only the address it was for learns that: another address's session is told it was not found.
    await refusedOn(acceptInvitation(tokenA, b, null, null), undefined, /not found/);
    expect(await db.membership.count({ where: { teamId: team.id, userId: a.id } })).toBe(0);

    const second = await inviteMember(person(people.owner!.id), team.id, { email: b.email, role: "viewer" });
    const oldToken = await mailedToken(b.email);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await resendInvitation(person(people.owner!.id), team.id, second.id);
    const newToken = await mailedToken(b.email);
    expect(newToken).not.toBe(oldToken);
    expect((await findInvitation(oldToken)).state).toBe("unknown");
    expect(await acceptInvitation(newToken, b, null, null)).toBe(team.slug);
  });

  it("an expired link says so and joins no one", async () => {
    const { team, people } = await teamWith({ owner: "owner" });
    const invitee = await bareAccount(`late-${tag()}@example.com`);
    const invited = await inviteMember(person(people.owner!.id), team.id, { email: invitee.email, role: "viewer" });
    const token = await mailedToken(invitee.email);
    await db.invitation.update({ where: { id: invited.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await findInvitation(token)).state).toBe("expired");
    await refusedOn(acceptInvitation(token, invitee, null, null), undefined, /expired/);
    expect(await db.membership.count({ where: { teamId: team.id, userId: invitee.id } })).toBe(0);
  });
});

describe("inviting", () => {
  it("answers, mails and asks the database the same for an address with an account and one without, reading no account", async () => {
    const { team, people } = await teamWith({ owner: "owner" });
    const known = await bareAccount(`known-${tag()}@example.com`);
    const unknown = `unknown-${tag()}@example.com`;
    const now = new Date();
    const invite = (email: string) =>
      recordQueries(() => inviteMember(person(people.owner!.id), team.id, { email, role: "viewer" }, now));
    const [a, b] = [await invite(known.email), await invite(unknown)];
    // The same queries, in the same order: what the database is asked (and so how long it takes) cannot tell.
    const sequence = (queries: RecordedQuery[]) => queries.map((q) => `${q.model}.${q.operation}`);
    expect(sequence(a.queries).length).toBeGreaterThan(5);
    expect(sequence(a.queries)).toEqual(sequence(b.queries));
    // The address is asked about only as a member of this team and as an invitation, then written: no query reads
    // an account by it (the only account read is the inviter's, by id).
    const naming = (queries: RecordedQuery[], email: string) =>
      queries
        .filter((q) => JSON.stringify(q.args).includes(email))
        .map((q) => q.model ?? (q.args as { strings: string[] }).strings[0]!.split("(")[0]!.trim());
    const asked = ["Membership", "Invitation", "Invitation", 'INSERT INTO "MailMessage"', "TeamAuditEvent"];
    expect(naming(a.queries, known.email)).toEqual(asked);
    expect(naming(b.queries, unknown)).toEqual(asked);
    // The same answer and the same mail, but for the address, the ids and the link.
    expect({ ...a.result, id: "", email: "" }).toEqual({ ...b.result, id: "", email: "" });
    const mailTo = (to: string) =>
      db.mailMessage.findFirstOrThrow({ where: { kind: "team_invitation", recipient: to } });
    const [mailA, mailB] = [await mailTo(known.email), await mailTo(unknown)];
    expect({ payload: JSON.parse(mailA.payload), userId: mailA.userId }).toEqual({
      payload: JSON.parse(mailB.payload),
      userId: null,
    });
  });

  it("refuses a bad address, a bad role, a member, a waiting one, and roles that may not invite; nothing is sent", async () => {
    const { team, people } = await teamWith({ owner: "owner", admin: "admin", dev: "developer" });
    const before = await db.mailMessage.count({ where: { kind: "team_invitation" } });
    const owner = person(people.owner!.id);
    await refusedOn(inviteMember(owner, team.id, { email: "not an address", role: "viewer" }), "email", /valid email/);
    await refusedOn(inviteMember(owner, team.id, { email: "x@example.com", role: "wizard" }), "role", /Choose one of/);
    await refusedOn(
      inviteMember(owner, team.id, { email: people.dev!.email, role: "viewer" }),
      "email",
      /already a member/,
    );
    // An admin invites developers but not owners; a developer invites no one.
    await refusedOn(
      inviteMember(person(people.admin!.id), team.id, { email: "o@example.com", role: "owner" }),
      undefined,
      /\(admin\) does not allow this/,
    );
    await refusedOn(
      inviteMember(person(people.dev!.id), team.id, { email: "d@example.com", role: "viewer" }),
      undefined,
      /\(developer\) does not allow this/,
    );
    expect(await db.mailMessage.count({ where: { kind: "team_invitation" } })).toBe(before);
    await inviteMember(owner, team.id, { email: "wait@example.com", role: "viewer" });
    await refusedOn(inviteMember(owner, team.id, { email: "WAIT@example.com", role: "admin" }), "email", /waiting/);
    // A personal team invites no one.
    const personal = await db.team.findUniqueOrThrow({ where: { personalOfId: people.owner!.id } });
    await refusedOn(
      inviteMember(owner, personal.id, { email: "p@example.com", role: "viewer" }),
      "email",
      /personal team/,
    );
    expect(await db.invitation.count({ where: { teamId: team.id } })).toBe(1);
  });

  it(`keeps to ${PENDING_INVITATIONS_MAX} waiting and ${INVITATIONS_PER_HOUR} sent an hour`, async () => {
    const { team, people } = await teamWith({ owner: "owner" });
    const owner = person(people.owner!.id);
    for (let i = 0; i < INVITATIONS_PER_HOUR; i++) {
      await inviteMember(owner, team.id, { email: `hourly-${i}@example.com`, role: "viewer" });
    }
    await refusedOn(
      inviteMember(owner, team.id, { email: "one-more@example.com", role: "viewer" }),
      "email",
      /in the last hour/,
    );
    const any = (await listInvitations(team.id))[0]!;
    await refusedOn(resendInvitation(owner, team.id, any.id), "invitation", /in the last hour/);
    // The waiting limit, with the hour's mails moved out of the way.
    await db.mailMessage.updateMany({
      where: { kind: "team_invitation", subject: { startsWith: `${team.id}:` } },
      data: { createdAt: new Date(Date.now() - 2 * 3600_000) },
    });
    await db.invitation.createMany({
      data: Array.from({ length: PENDING_INVITATIONS_MAX - INVITATIONS_PER_HOUR }, (_, i) => ({
        teamId: team.id,
        email: `filler-${i}@example.com`,
        role: "viewer",
        tokenDigest: `filler-${team.id}-${i}`,
        sentAt: new Date(),
        expiresAt: new Date(Date.now() + 3600_000),
      })),
    });
    await refusedOn(
      inviteMember(owner, team.id, { email: "fifty-one@example.com", role: "viewer" }),
      "email",
      /50 invitations waiting/,
    );
    // An expired one sent again would wait once more: refused at the limit too (review: 51 waiting).
    const expired = await db.invitation.update({
      where: { id: any.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await db.invitation.create({
      data: {
        teamId: team.id,
        email: "filler-last@example.com",
        role: "viewer",
        tokenDigest: `filler-${team.id}-last`,
        sentAt: new Date(),
        expiresAt: new Date(Date.now() + 3600_000),
      },
    });
    await refusedOn(resendInvitation(owner, team.id, expired.id), "invitation", /50 invitations waiting/);
    expect((await listInvitations(team.id)).filter((row) => !row.expired)).toHaveLength(PENDING_INVITATIONS_MAX);
  });

  it("sent again after it expired, is refused while a newer invitation to the address waits", async () => {
    const { team, people } = await teamWith({ owner: "owner" });
    const owner = person(people.owner!.id);
    const first = await inviteMember(owner, team.id, { email: "twice@example.com", role: "viewer" });
    await db.invitation.update({ where: { id: first.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const second = await inviteMember(owner, team.id, { email: "twice@example.com", role: "developer" });
    await refusedOn(resendInvitation(owner, team.id, first.id), "invitation", /Another invitation to that address/);
    const waiting = (await listInvitations(team.id)).filter((row) => !row.expired);
    expect(waiting.map((row) => row.id)).toEqual([second.id]);
    // Nor is one to an address that has joined meanwhile (attack review: it took a waiting place and mailed).
    const joined = await bareAccount(`joined-${tag()}@example.com`);
    const toJoined = await inviteMember(owner, team.id, { email: joined.email, role: "viewer" });
    await db.invitation.update({ where: { id: toJoined.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await addMember(operator(people.owner!.id), team.id, joined.id, "viewer");
    await refusedOn(resendInvitation(owner, team.id, toJoined.id), "invitation", /already a member/);
    // Once the newer one is withdrawn, the expired one may be sent again.
    await revokeInvitation(owner, team.id, second.id);
    await resendInvitation(owner, team.id, first.id);
    expect((await listInvitations(team.id)).filter((row) => !row.expired).map((row) => row.id)).toEqual([first.id]);
  });
});

describe("invitations and the member who sent them (attack review)", () => {
  it("are withdrawn when that member leaves, or loses the role to send them", async () => {
    const { team, people } = await teamWith({ owner: "owner", admin: "admin", co: "owner" });
    const byAdmin = await inviteMember(person(people.admin!.id), team.id, {
      email: `a-${tag()}@example.com`,
      role: "admin",
    });
    const byCo = [
      await inviteMember(person(people.co!.id), team.id, { email: `o-${tag()}@example.com`, role: "owner" }),
      await inviteMember(person(people.co!.id), team.id, { email: `d-${tag()}@example.com`, role: "developer" }),
    ];
    // An owner made admin: their owner invitation goes, the developer one stays (an admin may send it).
    await setRole(person(people.owner!.id), team.id, people.co!.id, "admin");
    const state = async (id: string) => (await db.invitation.findUniqueOrThrow({ where: { id } })).revokedAt !== null;
    expect([await state(byCo[0]!.id), await state(byCo[1]!.id)]).toEqual([true, false]);
    // The admin removed: their invitation goes with them, and its link says so.
    const token = await mailedToken(byAdmin.email);
    const departure = await removeMember(person(people.owner!.id), team.id, people.admin!.id);
    expect(departure.withdrawnInvitations).toBe(1);
    expect((await findInvitation(token)).state).toBe("withdrawn");
  });

  it("refuses an address that holds an API key, before it is lower-cased", async () => {
    const { team, people } = await teamWith({ owner: "owner" });
    const { generateApiKey } = await import("@/lib/keys/format");
    await refusedOn(
      inviteMember(person(people.owner!.id), team.id, {
        email: `${generateApiKey("dev")}@example.com`,
        role: "viewer",
      }),
      "email",
      /cannot contain an API key/,
    );
    expect(await db.invitation.count({ where: { teamId: team.id } })).toBe(0);
  });
});

describe("the operator CLI", () => {
  it("team:invite mails the invitation and prints it without its link", async () => {
    const { team, people } = await teamWith({ owner: "owner" });
    const slug = (await db.team.findUniqueOrThrow({ where: { id: team.id } })).slug;
    const email = `cli-${tag()}@example.com`;
    const result = await admin(["team:invite", "--team", slug, "--email", email, "--role", "admin"]);
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed).toMatchObject({ team: slug, email, role: "admin" });
    expect(result.stdout).not.toMatch(/invitations\//);
    const token = await mailedToken(email);
    expect(result.stdout).not.toContain(token);
    expect(people.owner).toBeDefined();
    const bad = await admin(["team:invite", "--team", slug, "--email", email, "--role", "wizard"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--role: Use one of/);
  });
});
