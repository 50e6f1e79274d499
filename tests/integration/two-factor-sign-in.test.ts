import { beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../helpers/next-request";

// The sign-in actions as the browser reaches them, with Next's request APIs
// replaced by a cookie jar and a redirect that throws (as Next's does).
vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { createAccount } = await import("@/lib/auth/accounts");
const { signInAction } = await import("@/lib/web/actions/sign-in");
const { twoFactorSignInAction } = await import("@/lib/web/actions/two-factor");
const { codeFor, newTotpSecret } = await import("@/lib/auth/two-factor/totp");
const { db } = await import("@/lib/db");
const { seal } = await import("@/lib/security/encryption");
const { newToken, tokenDigest } = await import("@/lib/security/token");
const { resetPassword } = await import("@/lib/auth/password-reset");
const { changePassword } = await import("@/lib/auth/password-change");
const { createSession } = await import("@/lib/auth/session-store");
const { generateApiKey } = await import("@/lib/keys/format");

const PASSWORD = "a long enough password";
let counter = 0;

async function userWithTwoFactor() {
  const email = `tfa-${Date.now()}-${counter++}@example.com`;
  const result = await createAccount(email, PASSWORD);
  if (!result.ok) throw new Error(result.error);
  const secret = newTotpSecret();
  await db.user.update({
    where: { id: result.userId },
    data: { totpSecret: seal(secret, "totp-secret"), totpEnabledAt: new Date() },
  });
  return { email, userId: result.userId, secret };
}

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

/** Runs an action that ends in a redirect, and returns where to; or the refusal it answered. */
async function run(action: Promise<unknown>) {
  try {
    return { answered: await action };
  } catch (error) {
    const match = /^NEXT_REDIRECT (.+)$/.exec((error as Error).message);
    if (!match) throw error;
    return { redirectedTo: match[1] };
  }
}

beforeEach(() => {
  request.cookies.clear();
  request.headers = new Headers({ "user-agent": "vitest", "x-keyport-peer-ip": `198.51.100.${counter % 250}` });
});

describe("two-factor sign-in", () => {
  it("turns a right password into a pending step, not a session; the code finishes it", async () => {
    const { email, userId, secret } = await userWithTwoFactor();
    const sessionsBefore = await db.session.count({ where: { userId } });
    const first = await run(signInAction(null, form({ email, password: PASSWORD, callbackUrl: "/dashboard/keys" })));
    expect(first).toEqual({ redirectedTo: "/sign-in/two-factor" });
    expect(await db.session.count({ where: { userId } })).toBe(sessionsBefore);
    const [cookieName, token] = [...request.cookies.entries()][0]!;
    expect(cookieName).toBe("keyport.sign-in");
    const pending = await db.pendingSignIn.findFirstOrThrow({ where: { userId } });
    expect(pending.tokenDigest).not.toContain(token);

    const done = await run(twoFactorSignInAction(null, form({ code: codeFor(secret) })));
    expect(done).toEqual({ redirectedTo: "/dashboard/keys" });
    expect(await db.session.count({ where: { userId } })).toBe(sessionsBefore + 1);
    expect(await db.pendingSignIn.count({ where: { userId } })).toBe(0);
    expect(request.cookies.has("keyport.sign-in")).toBe(false);
    expect(request.cookies.get("keyport.session")).toMatch(/^[\w-]{43}$/);
  });

  it("still asks for the code after a password reset, which itself signed nobody in", async () => {
    const { email, userId, secret } = await userWithTwoFactor();
    const reset = await db.passwordReset.create({
      data: {
        tokenDigest: tokenDigest(newToken()),
        userId,
        ip: "198.51.100.9",
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    const newPassword = "a different long passphrase";
    expect(
      await resetPassword({ id: reset.id, userId, email }, newPassword, { ip: null, userAgent: null }),
    ).toMatchObject({ ok: true });
    expect(await db.session.count({ where: { userId } })).toBe(0);

    expect(await run(signInAction(null, form({ email, password: newPassword })))).toEqual({
      redirectedTo: "/sign-in/two-factor",
    });
    expect(await db.session.count({ where: { userId } })).toBe(0);
    expect(request.cookies.has("keyport.session")).toBe(false);
    expect(await run(twoFactorSignInAction(null, form({ code: codeFor(secret) })))).toEqual({
      redirectedTo: "/dashboard",
    });
    expect(await db.session.count({ where: { userId } })).toBe(1);
  });

  it("ends a sign-in waiting for its code when the password is reset or changed", async () => {
    for (const change of ["reset", "change"] as const) {
      request.cookies.clear();
      const { email, userId, secret } = await userWithTwoFactor();
      // Someone who knows the old password gets as far as the code step...
      expect(await run(signInAction(null, form({ email, password: PASSWORD })))).toEqual({
        redirectedTo: "/sign-in/two-factor",
      });
      // ...then the owner changes the password.
      const newPassword = "a different long passphrase";
      if (change === "reset") {
        const reset = await db.passwordReset.create({
          data: {
            tokenDigest: tokenDigest(newToken()),
            userId,
            ip: "198.51.100.9",
            expiresAt: new Date(Date.now() + 60_000),
          },
        });
        await resetPassword({ id: reset.id, userId, email }, newPassword, { ip: null, userAgent: null });
      } else {
        const session = await createSession(userId, "198.51.100.10", "vitest");
        const actor = { userId, ip: "198.51.100.10", userAgent: "vitest" };
        const changed = await changePassword({
          actor,
          email,
          keepSessionId: session.id,
          currentPassword: PASSWORD,
          newPassword,
        });
        expect(changed).toMatchObject({ ok: true });
      }
      expect(await db.pendingSignIn.count({ where: { userId } })).toBe(0);
      expect((await run(twoFactorSignInAction(null, form({ code: codeFor(secret) })))).answered).toMatchObject({
        ok: false,
        error: expect.stringMatching(/took too long/),
      });
      expect(request.cookies.has("keyport.session")).toBe(false);
    }
  });

  it("refuses the code step without a pending sign-in, or once it has expired", async () => {
    const { email, userId, secret } = await userWithTwoFactor();
    expect((await run(twoFactorSignInAction(null, form({ code: codeFor(secret) })))).answered).toMatchObject({
      ok: false,
      error: expect.stringMatching(/took too long/),
    });
    await run(signInAction(null, form({ email, password: PASSWORD })));
    await db.pendingSignIn.updateMany({ where: { userId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await run(twoFactorSignInAction(null, form({ code: codeFor(secret) })))).answered).toMatchObject({
      ok: false,
      error: expect.stringMatching(/took too long/),
    });
    expect(await db.session.count({ where: { userId, createdAt: { gt: new Date(Date.now() - 60_000) } } })).toBe(0);
  });

  it("counts wrong codes toward the lockout, which then refuses even the right code", async () => {
    const { email, userId, secret } = await userWithTwoFactor();
    await run(signInAction(null, form({ email, password: PASSWORD })));
    for (let i = 0; i < 10; i++) {
      const wrong = await run(twoFactorSignInAction(null, form({ code: "000000" })));
      expect(wrong.answered).toMatchObject({ ok: false });
    }
    const locked = await run(twoFactorSignInAction(null, form({ code: codeFor(secret) })));
    expect(locked.answered).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Too many attempts\. Try again at/),
    });
    expect(await db.authAttempt.count({ where: { email, kind: "sign_in", success: false } })).toBeGreaterThanOrEqual(
      11,
    );
    expect(await db.session.count({ where: { userId, createdAt: { gt: new Date(Date.now() - 60_000) } } })).toBe(0);
  });

  it("leaves an account without two-factor signing in with the password alone", async () => {
    const email = `plain-${Date.now()}-${counter++}@example.com`;
    const result = await createAccount(email, PASSWORD);
    if (!result.ok) throw new Error(result.error);
    expect(await run(signInAction(null, form({ email, password: PASSWORD })))).toEqual({ redirectedTo: "/dashboard" });
    expect(request.cookies.get("keyport.session")).toMatch(/^[\w-]{43}$/);
  });

  it("keeps no key sent in the user agent: the step waiting for the code, the session, the activity log and the mail", async () => {
    const { email, userId, secret } = await userWithTwoFactor();
    // An earlier sign-in from elsewhere, so this one is new and mailed.
    await createSession(userId, "203.0.113.9", "Mozilla/5.0 Firefox/140.0");
    const key = generateApiKey("prod");
    // A client that names itself by its key: Bowser would call the browser by that name.
    request.headers.set("user-agent", `${key}/1.0 (X11; Linux x86_64)`);
    const redacted = "sk_prod_[redacted]/1.0 (X11; Linux x86_64)";

    expect(await run(signInAction(null, form({ email, password: PASSWORD })))).toEqual({
      redirectedTo: "/sign-in/two-factor",
    });
    expect((await db.pendingSignIn.findFirstOrThrow({ where: { userId } })).userAgent).toBe(redacted);
    expect(await run(twoFactorSignInAction(null, form({ code: codeFor(secret) })))).toEqual({
      redirectedTo: "/dashboard",
    });

    const session = await db.session.findFirstOrThrow({ where: { userId }, orderBy: { createdAt: "desc" } });
    expect(session.userAgent).toBe(redacted);
    const signIn = await db.auditEvent.findFirstOrThrow({
      where: { userId, action: "auth.sign_in" },
      orderBy: { seq: "desc" },
    });
    expect(signIn.userAgent).toBe(redacted);
    const mail = await db.mailMessage.findFirstOrThrow({ where: { kind: "new_sign_in", userId } });
    expect(mail.payload).not.toContain(key.slice(8));
  });
});
