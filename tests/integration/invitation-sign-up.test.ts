// Signing up from an invitation's link, as the form posts it: the account is
// made for the invited address (the link proves it), joins with the role
// given and is signed in; the link then works no more. And no route signs
// anyone in as a service account: it has no address, password or session.
import { describe, expect, it, vi } from "vitest";
import { formOf, request } from "../helpers/next-request";
import { settleAfterWork } from "../helpers/after-response";
import { mailedInvitationToken } from "../helpers/invitation-mail";
import { person, tag, teamWith } from "../helpers/team-people";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("@/lib/after-response", async () => (await import("../helpers/after-response")).afterResponseMock);

const { signUpFromInvitationAction } = await import("@/lib/web/actions/invitations");
const { inviteMember } = await import("@/lib/teams/invitations");
const { createServiceAccount } = await import("@/lib/teams/service-accounts");
const { createAccount, verifyCredentials, INVALID_CREDENTIALS_MESSAGE } = await import("@/lib/auth/accounts");
const { requestPasswordReset } = await import("@/lib/auth/password-reset");
const { db } = await import("@/lib/db");

const PASSWORD = "a long enough password";

/** Posts the sign-up form; a redirect comes back as { redirect }. */
async function signUpFrom(token: string, password = PASSWORD) {
  request.cookies = new Map();
  request.headers = new Headers({ "user-agent": "Vitest", "x-keyport-peer-ip": "192.0.2.44" });
  try {
    return await signUpFromInvitationAction(null, formOf({ token, password }));
  } catch (error) {
    const redirected = /^NEXT_REDIRECT (.+)$/.exec(String((error as Error).message));
    if (redirected?.[1]) return { redirect: redirected[1] };
    throw error;
  }
}

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

  it("refuses a link that was never sent", async () => {
    expect(await signUpFrom("A".repeat(43))).toMatchObject({ ok: false, error: "That invitation was not found." });
  });
});

describe("a service account", () => {
  it("cannot be signed in as, by its name or its id, with any password, nor sent a reset", async () => {
    const { team, people } = await teamWith({ owner: "owner" });
    const bot = await createServiceAccount(person(people.owner!.id), team.id, `ci-bot-${tag()}`);
    // Control: a person's right password signs in, so the refusals below are the service account's.
    const email = `person-${tag()}@example.com`;
    expect(await createAccount(email, PASSWORD)).toMatchObject({ ok: true });
    expect(await verifyCredentials(email, PASSWORD, "192.0.2.45")).toMatchObject({ ok: true, email });
    for (const name of [bot.name, bot.id, `${bot.name}@example.com`]) {
      expect(await verifyCredentials(name, PASSWORD, "192.0.2.45")).toEqual({
        ok: false,
        error: INVALID_CREDENTIALS_MESSAGE,
      });
      await requestPasswordReset(name, "192.0.2.46");
    }
    // Control: the person's reset is mailed, so the count below can see one.
    await requestPasswordReset(email, "192.0.2.47");
    await settleAfterWork();
    expect(await db.mailMessage.count({ where: { recipient: email } })).toBe(1);
    expect(await db.user.count({ where: { email: { contains: bot.name } } })).toBe(0);
    expect(await db.mailMessage.count({ where: { recipient: { contains: bot.name } } })).toBe(0);
  });
});
