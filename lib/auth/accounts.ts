import "server-only";
import { recordAudit, sealNewChain } from "../audit";
import { db } from "../db";
import { log } from "../log";
import { createPersonalTeam } from "../teams/personal-team";
import { markAttemptSucceeded, recordAttempt, signInLockedUntilFor } from "./attempts";
import { dummyPasswordHash, PasswordCheckBusy, passwordHasher, weakerThanCurrent } from "./password";

import { EMAIL_TAKEN_MESSAGE, INVALID_CREDENTIALS_MESSAGE } from "./sign-in-params";

export { INVALID_CREDENTIALS_MESSAGE };

export function tryAgainAt(when: Date): string {
  return `Too many attempts. Try again at ${when.toISOString().slice(11, 16)} UTC.`;
}

export type SignUpResult = { ok: true; userId: string } | { ok: false; error: string; field?: "email" };

/**
 * An operator's account creation (the admin CLI): an operator is not a
 * visitor, so no web sign-up limit applies; the account's activity log
 * records who made it instead.
 */
export async function createAccountAsOperator(
  email: string,
  password: string,
  operator: string,
): Promise<SignUpResult> {
  const result = await createAccount(email, password, { operator });
  if (result.ok) log.info("auth.account_created_by_operator", { user_id: result.userId, operator });
  return result;
}

type AccountTx = Parameters<Parameters<typeof db.$transaction>[0]>[0];

/**
 * The rows every new account starts with, in the caller's transaction: the
 * user, its signed empty activity chain, and its personal team. Every way an
 * account is made goes through here (sign-up, the operator CLI, a first
 * GitHub sign-in in lib/auth/options.ts).
 */
export async function insertAccount(
  tx: AccountTx,
  data: {
    email: string;
    passwordHash?: string;
    emailVerified?: Date | null;
    name?: string | null;
    image?: string | null;
  },
) {
  const user = await tx.user.create({ data });
  await sealNewChain(tx, user.id);
  await createPersonalTeam(tx, user.id);
  return user;
}

/**
 * Creates an account (the email already normalised): the last step of a web
 * sign-up (lib/auth/sign-up.ts, with the hash made at its first step), the
 * operator CLI, and tests. Says plainly when the address is taken: only
 * callers that may know that reach here.
 */
export async function createAccount(
  email: string,
  password: string | { passwordHash: string },
  { operator }: { operator?: string } = {},
): Promise<SignUpResult> {
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) {
    return { ok: false, field: "email", error: EMAIL_TAKEN_MESSAGE };
  }
  const passwordHash = typeof password === "string" ? await passwordHasher.hash(password) : password.passwordHash;
  try {
    const user = await db.$transaction(async (tx) => {
      const created = await insertAccount(tx, { email, passwordHash });
      if (operator) {
        await recordAudit(tx, { userId: created.id, ip: null, userAgent: operator }, "auth.account_created", null, {
          by: operator,
        });
      }
      return created;
    });
    return { ok: true, userId: user.id };
  } catch {
    // Lost a race with another sign-up for the same email.
    return { ok: false, field: "email", error: EMAIL_TAKEN_MESSAGE };
  }
}

export type SignInResult = { ok: true; userId: string; email: string } | { ok: false; error: string };

/**
 * Checks a password. An unknown email and a wrong password take the same
 * path, run one Argon2 verification each and get the same message.
 *
 * The attempt is recorded as a failure before anything is checked, so
 * concurrent guesses see each other: a burst of 500 cannot all slip under the
 * limit of 10. Attempts made while locked out are failures too, so a client
 * that keeps hammering keeps the lock. `device`: the browser's device cookie
 * for this email (lib/auth/device-cookie.ts), which has a lockout of its own.
 */
export async function verifyCredentials(
  email: string,
  password: string,
  ip: string,
  device: string | null = null,
): Promise<SignInResult> {
  // Refused before it counts as a guess: the caller answers "try again in a moment".
  if (passwordHasher.saturated()) throw new PasswordCheckBusy();
  const attempt = await recordAttempt("sign_in", email, ip, false, device);
  const lockedUntil = await signInLockedUntilFor(email, ip, device);
  const trusted = device !== null;
  if (lockedUntil) {
    log.warn("auth.sign_in.locked_out", { email, ip, device: trusted, retry_at: lockedUntil.toISOString() });
    return { ok: false, error: tryAgainAt(lockedUntil) };
  }
  const user = await db.user.findUnique({ where: { email }, select: { id: true, email: true, passwordHash: true } });
  const matches = await passwordHasher.verify(user?.passwordHash ?? dummyPasswordHash(), password);
  if (!user || !user.passwordHash || !matches) {
    const nowLocked = await signInLockedUntilFor(email, ip, device, new Date(), { afterThisAttempt: true });
    if (nowLocked) {
      log.warn("auth.sign_in.lockout_started", { email, ip, device: trusted, retry_at: nowLocked.toISOString() });
    } else log.info("auth.sign_in.failed", { email, ip });
    return { ok: false, error: INVALID_CREDENTIALS_MESSAGE };
  }
  await markAttemptSucceeded(attempt.id);
  if (weakerThanCurrent(user.passwordHash)) await upgradePasswordHash(user.id, user.passwordHash, password);
  return { ok: true, userId: user.id, email: user.email };
}

/**
 * Replaces a hash made with weaker parameters, now that the password is known
 * to be right; only if the hash is still the one checked, so a password
 * changed meanwhile is never overwritten.
 */
async function upgradePasswordHash(userId: string, checked: string, password: string) {
  const passwordHash = await passwordHasher.hash(password);
  const { count } = await db.user.updateMany({ where: { id: userId, passwordHash: checked }, data: { passwordHash } });
  if (count) log.info("auth.password_rehashed", { user_id: userId });
}
