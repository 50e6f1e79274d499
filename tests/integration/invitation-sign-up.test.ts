// Signing up from an invitation's link, as the form posts it: the account is
// made for the invited address (the link proves it), joins with the role
// given and is signed in; the link then works no more. Two sign-ups from one
// link at once make one account; an invitation withdrawn while the form is
// being sent makes none. And no way in signs anyone in as a service account
// (the sign-in and reset actions, next-auth's route handler): it has no
// address, password or session.
import { describe, expect, it, vi } from "vitest";
import { formOf, nextHeadersInRequire, request } from "../helpers/next-request";
import { settleAfterWork } from "../helpers/after-response";
import { mailedInvitationToken } from "../helpers/invitation-mail";
import { person, tag, teamWith } from "../helpers/team-people";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("@/lib/after-response", async () => (await import("../helpers/after-response")).afterResponseMock);

const { signUpFromInvitationAction } = await import("@/lib/web/actions/invitations");
const { signInAction } = await import("@/lib/web/actions/sign-in");
const { requestPasswordResetAction } = await import("@/lib/web/actions/password");
const nextAuthRoute = await import("@/app/api/auth/[...nextauth]/route");
const { inviteMember, revokeInvitation } = await import("@/lib/teams/invitations");
const { INVITATION_WITHDRAWN } = await import("@/lib/teams/invitation-links");
const { createServiceAccount } = await import("@/lib/teams/service-accounts");
const { createAccount, INVALID_CREDENTIALS_MESSAGE } = await import("@/lib/auth/accounts");
const { RESET_REQUESTED_MESSAGE } = await import("@/lib/auth/password-reset");
const { passwordHasher } = await import("@/lib/auth/password");
const { db } = await import("@/lib/db");

const PASSWORD = "a long enough password";

/** Runs a form's action as a browser with no cookies posts it; a redirect comes back as { redirect }. */
async function post<T>(action: (state: null, form: FormData) => Promise<T>, fields: Record<string, string>) {
  request.cookies = new Map();
  request.headers = new Headers({ "user-agent": "Vitest", "x-keyport-peer-ip": "192.0.2.44" });
  try {
    return await action(null, formOf(fields));
  } catch (error) {
    const redirected = /^NEXT_REDIRECT (.+)$/.exec(String((error as Error).message));
    if (redirected?.[1]) return { redirect: redirected[1] };
    throw error;
  }
}

/** Posts the sign-up form. */
const signUpFrom = (token: string, password = PASSWORD) => post(signUpFromInvitationAction, { token, password });

describe("signing up from an invitation's link", () => {
  it("makes the invited address's account, joins it with the role given, signs it in, and works once", async () => {
    const { team, people } = await teamWith({ owner: "owner" });
    const email = `invited-${tag()}@example.com`;
    await inviteMember(person(people.owner!.id), team.id, { email, role: "developer" });
    const token = await mailedInvitationToken(email);

    // A weak password is a field error, and nothing is made.
    expect(await signUpFrom(token, "short")).toMatchObject({
      ok: false,
      fieldErrors: { password: [expect.any(String)] },
    });
    expect(await db.user.count({ where: { email } })).toBe(0);

    expect(await signUpFrom(token)).toEqual({ redirect: `/dashboard/${team.slug}` });
    const user = await db.user.findUniqueOrThrow({ where: { email } });
    expect(
      await db.membership.findUniqueOrThrow({ where: { teamId_userId: { teamId: team.id, userId: user.id } } }),
    ).toMatchObject({ role: "developer" });
    // Signed in: a session cookie was set, for a session of this account.
    expect([...request.cookies.keys()]).toContain("keyport.session");
    expect(await db.session.count({ where: { userId: user.id } })).toBe(1);

    // The link is used: a second sign-up from it makes nothing.
    expect(await signUpFrom(token, "another long password")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/already (been )?used/),
    });
    expect(await db.user.count({ where: { email } })).toBe(1);
  });

  it("sends an address that already has an account to sign in, and joins nobody", async () => {
    const { team, people } = await teamWith({ owner: "owner", member: "viewer" });
    const outsider = await db.user.create({ data: { email: `has-account-${tag()}@example.com` } });
    await inviteMember(person(people.owner!.id), team.id, { email: outsider.email, role: "viewer" });
    expect(await signUpFrom(await mailedInvitationToken(outsider.email))).toMatchObject({
      ok: false,
      error: "An account already uses this address: sign in with it, then open the invitation's link again.",
    });
    expect(await db.membership.count({ where: { teamId: team.id, userId: outsider.id } })).toBe(0);
  });

  it("sent twice at once (two tabs, a double click), makes one account, one membership and one session", async () => {
    const { team, people } = await teamWith({ owner: "owner" });
    const email = `twice-${tag()}@example.com`;
    await inviteMember(person(people.owner!.id), team.id, { email, role: "developer" });
    const token = await mailedInvitationToken(email);
    // Both pass every check made before the password's hash, then go on together.
    const hash = passwordHasher.hash;
    let arrived = 0;
    let release = () => {};
    const bothHere = new Promise<void>((resolve) => (release = resolve));
    const spy = vi.spyOn(passwordHasher, "hash").mockImplementation(async (password) => {
      if (++arrived === 2) release();
      await bothHere;
      return hash(password);
    });
    const answers = await Promise.all([signUpFrom(token), signUpFrom(token)]).finally(() => spy.mockRestore());
    expect(arrived).toBe(2);
    // One is signed in and sent to the team; the other is told the link was used, and signed in as no one.
    expect(answers).toEqual(
      expect.arrayContaining([
        { redirect: `/dashboard/${team.slug}` },
        expect.objectContaining({ ok: false, error: "This invitation was already used." }),
      ]),
    );
    const user = await db.user.findUniqueOrThrow({ where: { email } });
    expect(await db.membership.count({ where: { teamId: team.id, userId: user.id } })).toBe(1);
    expect(await db.session.count({ where: { userId: user.id } })).toBe(1);
    expect(
      await db.teamAuditEvent.count({
        where: { teamId: team.id, action: "team.member_added", details: { contains: email } },
      }),
    ).toBe(1);
  });

  it("withdrawn while the form was being sent, makes no account and says why", async () => {
    const { team, people } = await teamWith({ owner: "owner" });
    const email = `withdrawn-${tag()}@example.com`;
    const invited = await inviteMember(person(people.owner!.id), team.id, { email, role: "developer" });
    const token = await mailedInvitationToken(email);
    // The link was opened while it waited; the admin withdraws it after the form was sent, while its password is
    // being hashed (after every check made before the hash).
    const hash = passwordHasher.hash;
    let withdrawn = false;
    const spy = vi.spyOn(passwordHasher, "hash").mockImplementationOnce(async (password) => {
      await revokeInvitation(person(people.owner!.id), team.id, invited.id);
      withdrawn = true;
      return hash(password);
    });
    try {
      expect(await signUpFrom(token)).toMatchObject({ ok: false, error: INVITATION_WITHDRAWN });
    } finally {
      spy.mockRestore();
    }
    expect(withdrawn).toBe(true);
    // No account was left behind without the team it was made to join, and no one was signed in.
    expect(await db.user.count({ where: { email } })).toBe(0);
    expect(await db.membership.count({ where: { teamId: team.id } })).toBe(1);
    expect([...request.cookies.keys()]).not.toContain("keyport.session");
  });

  it("refuses a link that was never sent", async () => {
    expect(await signUpFrom("A".repeat(43))).toMatchObject({ ok: false, error: "That invitation was not found." });
  });
});

describe("a service account", () => {
  it("cannot sign in or be sent a reset through the sign-in action, the reset action or next-auth's route", async () => {
    const { team, people } = await teamWith({ owner: "owner" });
    const bot = await createServiceAccount(person(people.owner!.id), team.id, `ci-bot-${tag()}`);
    const email = `person-${tag()}@example.com`;
    expect(await createAccount(email, PASSWORD)).toMatchObject({ ok: true });
    const sessionsBefore = await db.session.count();

    // The sign-in form: a person's right password signs in (the control); the service account's name, its id and its
    // name as an address, with the same password, are refused and set no cookie.
    expect(await post(signInAction, { email, password: PASSWORD })).toEqual({ redirect: "/dashboard" });
    expect([...request.cookies.keys()]).toContain("keyport.session");
    for (const [name, answer] of [
      [bot.name, { fieldErrors: { email: ["Enter a valid email address, like you@example.com."] } }],
      [bot.id, { fieldErrors: { email: ["Enter a valid email address, like you@example.com."] } }],
      [`${bot.name}@example.com`, { error: INVALID_CREDENTIALS_MESSAGE }],
    ] as const) {
      expect(await post(signInAction, { email: name, password: PASSWORD })).toMatchObject({ ok: false, ...answer });
      expect([...request.cookies.keys()]).not.toContain("keyport.session");
    }
    expect(await db.session.count()).toBe(sessionsBefore + 1);

    // The reset form: the same answer as for anyone, and a mail only for the person (the control).
    for (const name of [`${bot.name}@example.com`, email]) {
      expect(await post(requestPasswordResetAction, { email: name })).toEqual({
        ok: true,
        data: RESET_REQUESTED_MESSAGE,
      });
    }
    await settleAfterWork();
    expect(await db.mailMessage.count({ where: { recipient: email } })).toBe(1);
    expect(await db.mailMessage.count({ where: { recipient: { contains: bot.name } } })).toBe(0);

    // next-auth's route handler, as a browser posts to it with its CSRF token: it has no credentials provider, so
    // neither the name nor the id signs in. The control: the same handler's csrf answer does set cookies.
    nextHeadersInRequire();
    const route = (...path: string[]) => ({ params: Promise.resolve({ nextauth: path }) });
    const base = "http://localhost:3000/api/auth";
    request.cookies = new Map();
    const csrf = await nextAuthRoute.GET(new Request(`${base}/csrf`), route("csrf"));
    expect(csrf.headers.getSetCookie().join("\n")).toMatch(/keyport\.csrf=/);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const [cookie] = csrf.headers.getSetCookie()[0]!.split(";");
    const [cookieName, cookieValue] = cookie!.split("=") as [string, string];
    for (const name of [bot.name, bot.id]) {
      request.cookies = new Map([[cookieName, decodeURIComponent(cookieValue)]]);
      const answer = await nextAuthRoute.POST(
        new Request(`${base}/callback/credentials`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ csrfToken, email: name, password: PASSWORD }).toString(),
        }),
        route("callback", "credentials"),
      );
      expect(answer.status).not.toBe(200);
      expect(answer.headers.getSetCookie().join("\n")).not.toMatch(/session/);
    }
    expect(await db.session.count()).toBe(sessionsBefore + 1);
    expect(await db.user.count({ where: { email: { contains: bot.name } } })).toBe(0);
  });
});
