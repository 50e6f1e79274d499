import { beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../helpers/next-request";

// The fresh sign-in ("confirm it's you") is never blocked by failures that
// happened elsewhere: the attack review locked an owner's email (or their
// shared address) with wrong passwords, and the owner could then not revoke a
// leaked production key for 15 minutes. Here the attacks are replayed through
// the sign-in action itself, each with a control that the lockout it relies
// on is really on, and then the owner revokes from their signed-in browser.
vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { createAccount } = await import("@/lib/auth/accounts");
const { createSession, endedSessionNotice } = await import("@/lib/auth/session-store");
const { signInAction } = await import("@/lib/web/actions/sign-in");
const { stepUpAction } = await import("@/lib/web/actions/step-up");
const { STEP_UP_CODE_NEEDED, STEP_UP_MAX_FAILURES, STEP_UP_WINDOW_MS } = await import("@/lib/auth/step-up");
const { codeFor, newTotpSecret } = await import("@/lib/auth/two-factor/totp");
const { createKeyAction, reportLeakAction, revokeKeyAction } = await import("@/lib/web/actions/keys");
const { passwordHasher } = await import("@/lib/auth/password");
const { seal } = await import("@/lib/security/encryption");
const { db } = await import("@/lib/db");

const PASSWORD = "a long enough password";
const STALE = STEP_UP_WINDOW_MS + 60_000;
// Each test on its own /24 of the shared address space, so no test's lockout reaches another's.
let net = Math.floor(Math.random() * 200);
let counter = 0;

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

/** A browser with no cookies at `ip`: an attacker's, or a new one. */
function stranger(ip: string) {
  request.cookies = new Map();
  request.headers = new Headers({ "user-agent": "curl/8", "x-keyport-peer-ip": ip });
}

/** An owner signed in at `ip` with a production key, whose session proved itself over 10 minutes ago. */
async function ownerWithProductionKey() {
  const subnet = `100.64.${net++ % 250}`;
  const ip = `${subnet}.10`;
  const email = `owner-${Date.now()}-${counter++}@example.com`;
  const created = await createAccount(email, PASSWORD);
  if (!created.ok) throw new Error(created.error);
  const session = await createSession(created.userId, ip, "Firefox");
  const cookies = new Map([["keyport.session", session.sessionToken]]);
  const asOwner = () => {
    request.cookies = new Map(cookies);
    request.headers = new Headers({ "user-agent": "Firefox", "x-keyport-peer-ip": ip });
  };
  asOwner();
  const key = await createKeyAction(null, form({ label: "billing", environment: "prod", expiry: "never" }));
  if (!key.ok) throw new Error(key.error);
  await db.session.update({ where: { id: session.id }, data: { verifiedAt: new Date(Date.now() - STALE) } });
  return { email, userId: created.userId, sessionId: session.id, ip, subnet, keyId: key.data.keyId, asOwner };
}

async function expectLockedOut(email: string, ip: string) {
  stranger(ip);
  expect(await signInAction(null, form({ email, password: PASSWORD }))).toMatchObject({
    ok: false,
    error: expect.stringMatching(/^Too many attempts\. Try again at/),
  });
}

async function revokedAt(userId: string, keyId: string) {
  return (await db.apiKey.findFirstOrThrow({ where: { userId, publicId: keyId } })).revokedAt;
}

beforeEach(() => {
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

describe("the fresh sign-in under someone else's failures", () => {
  it("11 wrong passwords for the owner's email from other addresses: the owner still confirms and revokes", async () => {
    const owner = await ownerWithProductionKey();
    for (let i = 0; i < 11; i++) {
      stranger(`198.18.${net % 250}.${i + 1}`);
      expect(await signInAction(null, form({ email: owner.email, password: `wrong guess ${i}` }))).toMatchObject({
        ok: false,
      });
    }
    // Control: the email is locked for a browser that has never signed in, even with the right password.
    await expectLockedOut(owner.email, "198.18.250.250");

    owner.asOwner();
    expect(await revokeKeyAction(null, form({ keyId: owner.keyId }))).toMatchObject({
      ok: false,
      fieldErrors: { stepUp: [expect.stringMatching(/^Confirm it’s you/)] },
    });
    expect(await stepUpAction(null, form({ password: PASSWORD }))).toMatchObject({ ok: true });
    expect(await revokeKeyAction(null, form({ keyId: owner.keyId }))).toMatchObject({ ok: true });
    expect(await revokedAt(owner.userId, owner.keyId)).not.toBeNull();
  });

  it("10 wrong passwords for another account from the owner's own address: the owner still confirms and revokes", async () => {
    const owner = await ownerWithProductionKey();
    for (let i = 0; i < 10; i++) {
      stranger(owner.ip);
      const someoneElse = `c${i}-${owner.email}`;
      expect(await signInAction(null, form({ email: someoneElse, password: `wrong guess ${i}` }))).toMatchObject({
        ok: false,
      });
    }
    // Control: the owner's address is locked for a browser with no session.
    await expectLockedOut(owner.email, owner.ip);

    owner.asOwner();
    expect(await stepUpAction(null, form({ password: PASSWORD }))).toMatchObject({ ok: true });
    expect(await revokeKeyAction(null, form({ keyId: owner.keyId }))).toMatchObject({ ok: true });
    expect(await revokedAt(owner.userId, owner.keyId)).not.toBeNull();
  });

  it("with both lockouts on, a two-factor owner reports a key leaked with a code, never the password alone", async () => {
    const owner = await ownerWithProductionKey();
    const secret = newTotpSecret();
    await db.user.update({
      where: { id: owner.userId },
      data: { totpSecret: seal(secret, "totp-secret"), totpEnabledAt: new Date() },
    });
    for (let i = 0; i < 11; i++) {
      stranger(owner.ip);
      await signInAction(null, form({ email: owner.email, password: `wrong guess ${i}` }));
    }
    await expectLockedOut(owner.email, owner.ip);
    await expectLockedOut(owner.email, "198.18.250.251");

    owner.asOwner();
    // The password alone proves nothing once two-factor is on; it is not counted either.
    expect(await stepUpAction(null, form({ password: PASSWORD }))).toMatchObject({
      ok: false,
      error: STEP_UP_CODE_NEEDED,
    });
    expect(await db.session.findUniqueOrThrow({ where: { id: owner.sessionId } })).toMatchObject({ stepUpFailures: 0 });
    expect(await reportLeakAction(null, form({ keyId: owner.keyId }))).toMatchObject({
      ok: false,
      fieldErrors: { stepUp: [expect.any(String)] },
    });
    expect(await stepUpAction(null, form({ code: codeFor(secret) }))).toMatchObject({ ok: true });
    const reported = await reportLeakAction(null, form({ keyId: owner.keyId }));
    expect(reported).toMatchObject({ ok: true, data: { leakedKeyId: owner.keyId, secret: expect.any(String) } });
    expect(await revokedAt(owner.userId, owner.keyId)).not.toBeNull();
  });
});

describe("wrong answers in the fresh sign-in", () => {
  it("end the session at the fifth in a row, mail the owner once, and tell the browser why", async () => {
    const owner = await ownerWithProductionKey();
    owner.asOwner();
    const cookie = request.cookies.get("keyport.session")!;
    for (let i = 1; i < STEP_UP_MAX_FAILURES; i++) {
      const answer = await stepUpAction(null, form({ password: `wrong ${i}` }));
      expect(answer).toMatchObject({ ok: false, error: expect.stringMatching(/^That password is not right\./) });
    }
    expect(await db.mailMessage.count({ where: { userId: owner.userId, kind: "step_up_failed" } })).toBe(0);
    expect(await stepUpAction(null, form({ password: "wrong 5" }))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Five wrong answers: this session is signed out/),
    });
    expect(await db.session.count({ where: { id: owner.sessionId } })).toBe(0);
    const mails = await db.mailMessage.findMany({ where: { userId: owner.userId, kind: "step_up_failed" } });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ recipient: owner.email, subject: owner.sessionId });
    expect(JSON.parse(mails[0]!.payload)).toMatchObject({ ip: owner.ip });
    expect(await endedSessionNotice(cookie)).toMatchObject({ reason: "step_up_failed" });
    // The right password now comes too late, and the key is untouched.
    expect(await stepUpAction(null, form({ password: PASSWORD }))).toMatchObject({
      ok: false,
      error: "Your session has ended. Sign in again.",
    });
    expect(await revokedAt(owner.userId, owner.keyId)).toBeNull();
    // None of it counted toward the sign-in lockout: the owner signs in again at once.
    stranger(owner.ip);
    await expect(signInAction(null, form({ email: owner.email, password: PASSWORD }))).rejects.toThrow(/NEXT_REDIRECT/);
  });

  it("count in a row: a right answer starts the count again", async () => {
    const owner = await ownerWithProductionKey();
    owner.asOwner();
    for (let round = 0; round < 2; round++) {
      for (let i = 1; i < STEP_UP_MAX_FAILURES; i++) await stepUpAction(null, form({ password: `wrong ${i}` }));
      expect(await stepUpAction(null, form({ password: PASSWORD }))).toMatchObject({ ok: true });
    }
    expect(await db.session.findUniqueOrThrow({ where: { id: owner.sessionId } })).toMatchObject({ stepUpFailures: 0 });
  });

  it("cannot be raced past: 20 wrong answers at once from a stolen session end it with one mail", async () => {
    const owner = await ownerWithProductionKey();
    owner.asOwner();
    const verify = vi.spyOn(passwordHasher, "verify");
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => stepUpAction(null, form({ password: `guess ${i}` }))),
    );
    expect(answers.every((answer) => !answer.ok)).toBe(true);
    expect(verify.mock.calls.length).toBeLessThanOrEqual(STEP_UP_MAX_FAILURES);
    expect(await db.session.count({ where: { id: owner.sessionId } })).toBe(0);
    expect(await db.mailMessage.count({ where: { userId: owner.userId, kind: "step_up_failed" } })).toBe(1);
    expect(await db.endedSession.count({ where: { userId: owner.userId, reason: "step_up_failed" } })).toBe(1);
  });
});
