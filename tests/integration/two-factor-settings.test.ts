import { beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../helpers/next-request";
import { enrolTwoFactor } from "../helpers/two-factor-enrolment";

// Turning two-factor on and off from the account page, with the actions
// called directly: both need a fresh sign-in, and a code to turn it off is
// no cheaper to guess than a code at sign-in.
vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { createAccount } = await import("@/lib/auth/accounts");
const { createSession } = await import("@/lib/auth/session-store");
const { STEP_UP_MESSAGE, STEP_UP_WINDOW_MS } = await import("@/lib/auth/step-up");
const { confirmTwoFactorAction, disableTwoFactorAction, replaceRecoveryCodesAction, startTwoFactorAction } =
  await import("@/lib/web/actions/two-factor");
const { verifySecondFactor } = await import("@/lib/auth/two-factor/verify");
const { twoFactorView } = await import("@/lib/auth/two-factor/enrolment");
const { codeFor } = await import("@/lib/auth/two-factor/totp");
const { db } = await import("@/lib/db");

const PASSWORD = "a long enough password";
const STALE = STEP_UP_WINDOW_MS + 60_000;
let counter = 0;

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

/** A signed-in browser (from its own IP) whose session last proved itself `ageMs` ago. */
async function signedIn(ageMs = 0) {
  const email = `tfa-settings-${Date.now()}-${counter++}@example.com`;
  const result = await createAccount(email, PASSWORD);
  if (!result.ok) throw new Error(result.error);
  const session = await createSession(result.userId, "192.0.2.1", "vitest");
  await db.session.update({ where: { id: session.id }, data: { verifiedAt: new Date(Date.now() - ageMs) } });
  request.cookies.set("keyport.session", session.sessionToken);
  request.headers = new Headers({ "user-agent": "vitest", "x-keyport-peer-ip": `198.18.7.${counter % 250}` });
  return { email, userId: result.userId, sessionId: session.id };
}

/** Turns two-factor on through the actions; returns the secret the page showed. */
const enrol = async (userId: string, email: string) => (await enrolTwoFactor(userId, email)).secret;

const makeStale = (sessionId: string) =>
  db.session.update({ where: { id: sessionId }, data: { verifiedAt: new Date(Date.now() - STALE) } });

const stepUpRefusal = { ok: false, error: STEP_UP_MESSAGE, fieldErrors: { stepUp: [STEP_UP_MESSAGE] } };

beforeEach(() => request.cookies.clear());

describe("two-factor settings", () => {
  it("replaces the recovery codes after a fresh sign-in: the old stop working, the new work once, the owner is mailed", async () => {
    const { userId, email, sessionId } = await signedIn(0);
    // Off: nothing to replace.
    expect(await replaceRecoveryCodesAction(null, form({}))).toMatchObject({
      ok: false,
      error: "Two-factor sign-in is off: there are no recovery codes to replace.",
    });
    await enrol(userId, email);
    const oldCode = "AAAA-AAAA-AAAA-AAAA";
    // One old code we know: its digest put in place of one made at enrolment (they are shown once, never stored).
    const { recoveryCodeDigest } = await import("@/lib/auth/two-factor/verify");
    const one = await db.recoveryCode.findFirstOrThrow({ where: { userId } });
    await db.recoveryCode.update({
      where: { id: one.id },
      data: { digest: recoveryCodeDigest(oldCode.replace(/-/g, "")) },
    });

    // A stale session is asked to sign in again, and nothing changes.
    await makeStale(sessionId);
    expect(await replaceRecoveryCodesAction(null, form({}))).toMatchObject(stepUpRefusal);
    expect(await db.recoveryCode.count({ where: { userId, id: one.id } })).toBe(1);
    await db.session.update({ where: { id: sessionId }, data: { verifiedAt: new Date() } });

    const answer = await replaceRecoveryCodesAction(null, form({}));
    expect(answer).toMatchObject({ ok: true });
    const codes = (answer as { ok: true; data: string[] }).data;
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/);
    expect(await verifySecondFactor(userId, oldCode)).toBeNull();
    expect(await verifySecondFactor(userId, codes[0]!)).toBe("recovery_code");
    expect(await verifySecondFactor(userId, codes[0]!)).toBeNull();
    expect((await twoFactorView(userId, email)).recoveryCodesLeft).toBe(9);
    expect(await db.auditEvent.count({ where: { userId, action: "auth.recovery_codes_replaced" } })).toBe(1);
    const mail = await db.mailMessage.findFirstOrThrow({
      where: { recipient: email, kind: "two_factor_changed" },
      orderBy: { createdAt: "desc" },
    });
    expect(JSON.parse(mail.payload)).toMatchObject({ change: "recovery_codes_replaced" });
    for (const code of codes) expect(mail.payload).not.toContain(code);
  });

  it("asks setting up for the app's 6-digit code, and says so for an empty, short or lettered one", async () => {
    const { userId, email } = await signedIn(0);
    expect(await startTwoFactorAction(null, form({}))).toMatchObject({ ok: true });
    for (const [code, message] of [
      ["", "Enter the 6-digit code your authenticator app shows."],
      ["   ", "Enter the 6-digit code your authenticator app shows."],
      ["123", "A code is 6 digits: enter the one your app shows now."],
      ["abcdef", "A code is 6 digits: enter the one your app shows now."],
      ["1234567", "A code is 6 digits: enter the one your app shows now."],
    ]) {
      const answer = await confirmTwoFactorAction(null, form({ code: code! }));
      expect(answer, JSON.stringify(code)).toMatchObject({ ok: false, fieldErrors: { code: [message] } });
      expect(JSON.stringify(answer)).not.toContain("recovery");
    }
    // A right code with the space some apps show in the middle turns it on.
    const { pending } = await twoFactorView(userId, email);
    const code = codeFor(pending!.secret);
    expect(await confirmTwoFactorAction(null, form({ code: `${code.slice(0, 3)} ${code.slice(3)}` }))).toMatchObject({
      ok: true,
    });
  });

  it("cannot be turned on from a stale session, at either step", async () => {
    const { userId, email, sessionId } = await signedIn(STALE);
    expect(await startTwoFactorAction(null, form({}))).toMatchObject(stepUpRefusal);
    expect((await db.user.findUniqueOrThrow({ where: { id: userId } })).totpSecret).toBeNull();

    // Started while fresh, confirmed once stale: still refused.
    await db.session.update({ where: { id: sessionId }, data: { verifiedAt: new Date() } });
    expect(await startTwoFactorAction(null, form({}))).toMatchObject({ ok: true });
    const { pending } = await twoFactorView(userId, email);
    await makeStale(sessionId);
    expect(await confirmTwoFactorAction(null, form({ code: codeFor(pending!.secret) }))).toMatchObject(stepUpRefusal);
    expect((await db.user.findUniqueOrThrow({ where: { id: userId } })).totpEnabledAt).toBeNull();
  });

  it("cannot be turned off from a stale session, even with the right code", async () => {
    const { userId, email, sessionId } = await signedIn();
    const secret = await enrol(userId, email);
    await makeStale(sessionId);
    expect(await disableTwoFactorAction(null, form({ code: codeFor(secret) }))).toMatchObject(stepUpRefusal);
    expect((await db.user.findUniqueOrThrow({ where: { id: userId } })).totpEnabledAt).not.toBeNull();
  });

  it("counts wrong codes to turn it off against the session, not the lockout: the fifth ends the session", async () => {
    const { userId, email, sessionId } = await signedIn();
    const secret = await enrol(userId, email);
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const failuresBefore = await db.authAttempt.count({ where: { email, kind: "sign_in", success: false } });
    for (let i = 0; i < 4; i++) {
      expect(await disableTwoFactorAction(null, form({ code: String(100000 + i) }))).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^That code is not right, or was used already\. \w+ more wrong answers? signs?/),
      });
    }
    expect(await disableTwoFactorAction(null, form({ code: "100009" }))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Five wrong answers: this session is signed out/),
    });
    expect(await db.authAttempt.count({ where: { email, kind: "sign_in", success: false } })).toBe(failuresBefore);
    expect(await db.session.count({ where: { id: sessionId } })).toBe(0);
    expect(await disableTwoFactorAction(null, form({ code: codeFor(secret) }))).toMatchObject({
      ok: false,
      error: "Your session has ended. Sign in again.",
    });
    expect((await db.user.findUniqueOrThrow({ where: { id: userId } })).totpEnabledAt).not.toBeNull();
  });

  it("turns off with a right code, which cannot be used again, and ends sign-ins waiting for a code", async () => {
    const { userId, email } = await signedIn();
    const secret = await enrol(userId, email);
    await db.pendingSignIn.create({
      data: {
        tokenDigest: `digest-${counter++}`,
        userId,
        ip: "203.0.113.9",
        callbackUrl: "/dashboard",
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    const code = codeFor(secret);
    // Done, it sends the browser to the page that says so.
    await expect(disableTwoFactorAction(null, form({ code }))).rejects.toThrow(
      "NEXT_REDIRECT /account/two-factor?turned=off",
    );
    const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
    expect(user.totpEnabledAt).toBeNull();
    expect(user.totpSecret).toBeNull();
    expect(await db.recoveryCode.count({ where: { userId } })).toBe(0);
    expect(await db.pendingSignIn.count({ where: { userId } })).toBe(0);
  });

  it("says what is missing when the code is left out", async () => {
    const { userId, email } = await signedIn();
    await enrol(userId, email);
    expect(await disableTwoFactorAction(null, new FormData())).toMatchObject({
      ok: false,
      error: "Enter the code from your app, or a recovery code.",
    });
  });
});
