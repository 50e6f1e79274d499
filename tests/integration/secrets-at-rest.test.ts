import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it, vi } from "vitest";
import { settleAfterWork } from "../helpers/after-response";
import { request } from "../helpers/next-request";
import { createMigratedTestDatabase } from "../helpers/test-database";

// No bearer secret at rest: after a full flow (sign-up, sign-in, a key, a
// password reset link, a sign-up link, a sign-in waiting for its two-factor
// code, recovery codes, a GitHub account linked, sign-ins from a client that
// sends the key in its user agent, a team's invitation, a production key
// requested, approved and revealed), every value in every table, and every
// token-, key-, code- or cookie-shaped piece of one, is tried as a session
// cookie, an API key, a reset link, a sign-up link, a pending sign-in, an
// invitation's link, a recovery code and a device cookie, through the code
// that accepts each. None works. GitHub's tokens only GitHub could try: no
// table holds them at all. A control shows each secret working where it
// belongs, and another that the scan finds each of them planted in a table.
vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
vi.mock("@/lib/after-response", async () => (await import("../helpers/after-response")).afterResponseMock);

// A database of its own: every row in it comes from this file's flow, so every value can be tried.
const database = await createMigratedTestDatabase();
process.env.DATABASE_URL = database.url;
// This file's runtime, on that database (tests build their own: lib/runtime/create-runtime.ts).
{
  const { createRuntime } = await import("@/lib/runtime/create-runtime");
  const { publishRuntime } = await import("@/lib/runtime/runtime");
  const { getEnv } = await import("@/lib/env");
  publishRuntime(createRuntime({ ...getEnv(), DATABASE_URL: database.url }));
}
const { authOptions } = await import("@/lib/auth/options");
const { createAccount } = await import("@/lib/auth/accounts");
const { readSession } = await import("@/lib/auth/session-store");
const { findUsableReset, requestPasswordReset } = await import("@/lib/auth/password-reset");
const { signInAction } = await import("@/lib/web/actions/sign-in");
const { findUsableSignUp } = await import("@/lib/auth/sign-up");
const { confirmSignUpAction, signUpAction } = await import("@/lib/web/actions/sign-up");
const { currentPendingSignIn } = await import("@/lib/auth/two-factor/pending-sign-in");
const { newTotpSecret } = await import("@/lib/auth/two-factor/totp");
const { createKeyAction } = await import("@/lib/web/actions/keys");
const { verifyApiKey } = await import("@/lib/keys/verify");
const { db } = await import("@/lib/db");
const { getEnv } = await import("@/lib/env");
const { open, seal } = await import("@/lib/security/encryption");
const { deviceIdFor } = await import("@/lib/auth/device-cookie");
const { replaceRecoveryCodes } = await import("@/lib/auth/two-factor/enrolment");
const { normaliseRecoveryCode, recoveryCodeDigest } = await import("@/lib/auth/two-factor/verify");
const { inviteMember } = await import("@/lib/teams/invitations");
const { findInvitation } = await import("@/lib/teams/invitation-links");
const { addMember, createTeam } = await import("@/lib/teams/members");
const { setTeamPolicy } = await import("@/lib/teams/policy-store");
const { decideKeyRequest, requestProductionKey, revealRequestedKey } = await import("@/lib/keys/key-requests");
const { UNRESTRICTED } = await import("@/lib/keys/restrictions");
const { mailedInvitationToken } = await import("../helpers/invitation-mail");
const { operator, person } = await import("../helpers/team-people");

afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

const PASSWORD = "a long enough password";

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

/** A browser at `ip` with a cookie jar of its own; an action's redirect comes back as its path. */
function browser(ip: string, userAgent = "Firefox") {
  const jar = new Map<string, string>();
  return {
    jar,
    async post(action: (data: FormData) => Promise<unknown>, fields: Record<string, string>) {
      request.cookies = jar;
      request.headers = new Headers({ "user-agent": userAgent, "x-keyport-peer-ip": ip });
      try {
        return await action(form(fields));
      } catch (error) {
        const redirected = /^NEXT_REDIRECT (.+)$/.exec(String((error as Error).message));
        if (redirected) return redirected[1];
        throw error;
      }
    },
  };
}

/** The token of the link in the newest unsent mail of `kind` to `to`, as the mail job would open it. */
async function linkToken(kind: string, to: string): Promise<string> {
  const mail = await db.mailMessage.findFirstOrThrow({
    where: { kind, recipient: to },
    orderBy: { createdAt: "desc" },
  });
  return new URL(open(mail.sealedLink!, "mail-link")!).searchParams.get("token")!;
}

/** The addresses of this file's accounts: a device cookie is signed for one of them. */
const EMAILS = ["owner@example.com", "newcomer@example.com", "guarded@example.com", "developer@example.com"];

const works: Record<string, (value: string) => Promise<boolean>> = {
  "a session cookie": async (value) => (await readSession(value)) !== null,
  "an API key": async (value) => {
    const verified = await verifyApiKey(value);
    return verified.ok || verified.reason !== "invalid";
  },
  "a password reset link": async (value) => (await findUsableReset(value)).ok,
  "a sign-up link": async (value) => (await findUsableSignUp(value)).ok,
  "a pending sign-in": async (value) => {
    request.cookies = new Map([["keyport.sign-in", value]]);
    return (await currentPendingSignIn()) !== null;
  },
  // Any invitation the token names, pending or spent: a withdrawn or used link is still one that was mailed.
  "an invitation's link": async (value) => (await findInvitation(value)).state !== "unknown",
  // Looked up, not spent: the scan must leave the codes as they were.
  "a recovery code": async (value) => {
    const code = normaliseRecoveryCode(value);
    return code !== null && (await db.recoveryCode.count({ where: { digest: recoveryCodeDigest(code) } })) > 0;
  },
  "a device cookie": async (value) => EMAILS.some((email) => deviceIdFor(value, email, getEnv().AUTH_SECRET!) !== null),
};

/** Every string stored in every table, with where it was. */
async function storedValues(): Promise<Map<string, string>> {
  const tables =
    database.provider === "sqlite"
      ? await db.$queryRaw<{ name: string }[]>`SELECT name FROM sqlite_master
          WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
      : await db.$queryRaw<{ name: string }[]>`SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`;
  const values = new Map<string, string>();
  for (const { name } of tables) {
    const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "${name.replaceAll('"', '""')}"`);
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        const text = typeof value === "string" ? value : Buffer.isBuffer(value) ? value.toString("utf8") : null;
        if (text) values.set(text, `${name}.${column}`);
      }
    }
  }
  return values;
}

// The shapes of the secrets: an API key, a 32-byte token (cookies and links), a recovery code as shown (dashes,
// any case), and a device cookie (version, random part, issue time, signature).
const SECRET_SHAPES =
  /sk_(?:dev|prod)_[0-9A-Za-z]{38}|[A-Za-z0-9_-]{43}|[A-Za-z2-7]{4}(?:-[A-Za-z2-7]{4}){3}|1\.[A-Za-z0-9_-]{22}\.[0-9a-z]{1,9}\.[A-Za-z0-9_-]{43}/g;

/** Each stored value, and each secret-shaped piece of one (a secret inside JSON, a URL, a log line). */
function candidates(values: Map<string, string>): Map<string, string> {
  const found = new Map(values);
  for (const [value, where] of values) {
    for (const piece of value.match(SECRET_SHAPES) ?? []) {
      if (!found.has(piece)) found.set(piece, `${where} (inside)`);
    }
  }
  return found;
}

async function whatWorks(values: Map<string, string>): Promise<string[]> {
  const working: string[] = [];
  for (const [value, where] of candidates(values)) {
    for (const [kind, probe] of Object.entries(works)) {
      if (await probe(value)) working.push(`${where} works as ${kind}`);
    }
  }
  return working;
}

describe(`secrets at rest (${database.provider})`, () => {
  const owner = browser("192.0.2.10");
  // Each secret the flow handed out, by what it is (a kind of `works`).
  const secrets: Record<string, string> = {};
  // More secrets of a kind already there, by name: [name, kind, value].
  const more: [string, string, string][] = [];

  it("none of them, in any table, after a full flow; each works where it belongs", async () => {
    const email = "owner@example.com";
    expect(await owner.post((data) => signUpAction(null, data), { email, password: PASSWORD })).toBe(
      "/sign-up/check-inbox",
    );
    await settleAfterWork();
    const confirmed = await owner.post((data) => confirmSignUpAction(null, data), {
      token: await linkToken("confirm_sign_up", email),
      password: PASSWORD,
    });
    expect(confirmed).toBe("/dashboard");
    secrets["a session cookie"] = owner.jar.get("keyport.session")!;

    const laptop = browser("192.0.2.11");
    expect(await laptop.post((data) => signInAction(null, data), { email, password: PASSWORD })).toBe("/dashboard");
    const created = (await laptop.post((data) => createKeyAction(null, data), {
      label: "billing",
      environment: "prod",
      expiry: "never",
    })) as { ok: true; data: { secret: string } };
    secrets["an API key"] = created.data.secret;
    // A client that names itself by the key (a script's user agent), signing in from here on.
    const careless = `${created.data.secret}/1.0 (X11; Linux x86_64)`;
    expect(
      await browser("192.0.2.15", careless).post((data) => signInAction(null, data), { email, password: PASSWORD }),
    ).toBe("/dashboard");

    await requestPasswordReset(email, "192.0.2.12");
    await browser("192.0.2.13").post((data) => signUpAction(null, data), {
      email: "newcomer@example.com",
      password: PASSWORD,
    });
    await settleAfterWork();
    secrets["a password reset link"] = await linkToken("password_reset", email);
    secrets["a sign-up link"] = await linkToken("confirm_sign_up", "newcomer@example.com");

    const guarded = await createAccount("guarded@example.com", PASSWORD);
    if (!guarded.ok) throw new Error(guarded.error);
    await db.user.update({
      where: { id: guarded.userId },
      data: { totpSecret: seal(newTotpSecret(), "totp-secret"), totpEnabledAt: new Date() },
    });
    const phone = browser("192.0.2.14", careless);
    expect(
      await phone.post((data) => signInAction(null, data), { email: "guarded@example.com", password: PASSWORD }),
    ).toBe("/sign-in/two-factor");
    secrets["a pending sign-in"] = phone.jar.get("keyport.sign-in")!;

    // A GitHub sign-in links the account as next-auth does, with GitHub's token response.
    const githubTokens = {
      access_token: `gho_${randomBytes(18).toString("hex")}`,
      refresh_token: `ghr_${randomBytes(38).toString("hex")}`,
    };
    const { id: ownerId } = await db.user.findUniqueOrThrow({ where: { email }, select: { id: true } });
    await authOptions().adapter!.linkAccount!({
      provider: "github",
      type: "oauth",
      providerAccountId: "583231",
      token_type: "bearer",
      scope: "read:user,user:email",
      ...githubTokens,
      userId: ownerId,
    });

    // The browsers that signed in hold a device cookie for their address (lib/auth/device-cookie.ts).
    secrets["a device cookie"] = laptop.jar.get("keyport.device")!;
    // Two-factor's recovery codes, shown once: each stands in for the app's code, once.
    const codes = await replaceRecoveryCodes(person(guarded.userId), "guarded@example.com");
    secrets["a recovery code"] = codes![0]!;
    codes!.slice(1).forEach((code, i) => more.push([`recovery code ${i + 1}`, "a recovery code", code]));
    more.push(["a recovery code without its dashes", "a recovery code", codes![0]!.replaceAll("-", "")]);

    // A team of the owner's: an invitation mailed, and a production key asked for, approved and revealed.
    const team = await createTeam(person(ownerId), { name: "Billing" });
    await inviteMember(person(ownerId), team.id, { email: "invitee@example.com", role: "developer" });
    secrets["an invitation's link"] = await mailedInvitationToken("invitee@example.com");
    const developer = await createAccount("developer@example.com", PASSWORD);
    if (!developer.ok) throw new Error(developer.error);
    await addMember(operator(ownerId), team.id, developer.userId, "developer");
    await setTeamPolicy(person(ownerId), team.id, { productionKeys: "approval" });
    const asked = await requestProductionKey(person(developer.userId), team.id, {
      label: "payments",
      expiresAt: null,
      restrictions: UNRESTRICTED,
      reason: "Payments go live.",
    });
    await decideKeyRequest(person(ownerId), team.id, asked.id, { approve: true, comment: null });
    const revealed = await revealRequestedKey(person(developer.userId), team.id, asked.id);
    more.push(["a requested key, revealed", "an API key", revealed.secret]);
    await settleAfterWork();

    // Controls: each secret works as what it is, so a probe that could never pass would show here.
    const all: [string, string, string][] = [
      ...Object.entries(secrets).map(([kind, value]): [string, string, string] => [kind, kind, value]),
      ...more,
    ];
    expect(Object.keys(secrets).sort()).toEqual(Object.keys(works).sort());
    for (const [name, kind, secret] of all) expect(await works[kind]!(secret), name).toBe(true);

    const values = await storedValues();
    expect(values.size).toBeGreaterThan(50);
    expect(await whatWorks(values)).toEqual([]);
    const everything = [...values.keys()].join("\n");
    for (const [name, , secret] of all) expect(everything, name).not.toContain(secret);
    for (const [field, token] of Object.entries(githubTokens)) expect(everything, field).not.toContain(token);
  }, 60_000);

  it("finds each kind of secret planted in a table: the scan can fail", async () => {
    const session = await db.session.findFirstOrThrow();
    // One of each kind, inside a value as a careless client or log line would put them.
    await db.session.update({
      where: { id: session.id },
      data: { userAgent: `Firefox ${Object.values(secrets).join(" ")}` },
    });
    const found = await whatWorks(await storedValues());
    expect(found.sort()).toEqual(
      Object.keys(works)
        .map((kind) => `Session.userAgent (inside) works as ${kind}`)
        .sort(),
    );
  });
});
