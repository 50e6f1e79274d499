import "server-only";
import { failure, type ActionResult } from "../action-result";
import { db } from "../db";
import { log } from "../log";
import { recordAttempt, markAttemptSucceeded, signInLockedUntil } from "./attempts";
import { tryAgainAt } from "./accounts";
import { dummyPasswordHash, passwordHasher } from "./password";
import type { ActiveSession } from "./session-store";
import { verifySecondFactor } from "./two-factor/verify";

// A fresh sign-in before production key changes ("sudo mode", as GitHub calls
// it): creating a production key, rotating, revoking or reporting one leaked,
// and editing its access need the session to have proved its user (password,
// a two-factor code, or a GitHub sign-in) in the last 10 minutes. The time
// is Session.verifiedAt, set when the session is made and when it proves
// itself again; checked on the server in every such action. Turning
// two-factor on or off needs it too: a stolen session must not be able to
// lock the owner out with the thief's authenticator.

export const STEP_UP_WINDOW_MS = 10 * 60 * 1000;
/** The field a refusal names, so the dashboard knows to ask and then send the same form again. */
export const STEP_UP_FIELD = "stepUp";
export const STEP_UP_MESSAGE =
  "Confirm it’s you: changes to production keys need your password or a two-factor code from the last 10 minutes.";

export async function recentlyVerified(session: ActiveSession, now = new Date()): Promise<boolean> {
  const row = await db.session.findUnique({ where: { id: session.id }, select: { verifiedAt: true } });
  return Boolean(row && now.getTime() - row.verifiedAt.getTime() <= STEP_UP_WINDOW_MS);
}

/**
 * For an action that needs a fresh sign-in: the refusal a stale session gets
 * (naming STEP_UP_FIELD, so the page asks and sends the same form again), or
 * null when the session proved itself recently.
 */
export async function freshSignInRefusal(
  session: ActiveSession,
  formData?: FormData,
  omit: readonly string[] = [],
): Promise<ActionResult<never> | null> {
  if (await recentlyVerified(session)) return null;
  return failure(STEP_UP_MESSAGE, formData, { fieldErrors: { [STEP_UP_FIELD]: [STEP_UP_MESSAGE] }, omit });
}

export interface StepUpProof {
  password?: string | undefined;
  code?: string | undefined;
}

/**
 * Checks a password or a two-factor code for the signed-in user and, when it
 * is right, marks the session verified now. A wrong one counts toward the
 * sign-in lockout, so the dialog is no cheaper to guess at than sign-in.
 */
export async function proveIdentity(
  session: ActiveSession,
  proof: StepUpProof,
  ip: string,
  now = new Date(),
): Promise<{ ok: true } | { ok: false; error: string }> {
  const attempt = await recordAttempt("sign_in", session.email, ip, false);
  const lockedUntil = await signInLockedUntil(session.email, ip);
  if (lockedUntil) return { ok: false, error: tryAgainAt(lockedUntil) };
  let proved = false;
  if (proof.code) {
    proved = (await verifySecondFactor(session.userId, proof.code, now)) !== null;
  } else if (proof.password) {
    const user = await db.user.findUnique({ where: { id: session.userId }, select: { passwordHash: true } });
    const matches = await passwordHasher.verify(user?.passwordHash ?? dummyPasswordHash(), proof.password);
    proved = Boolean(user?.passwordHash) && matches;
  }
  if (!proved) {
    log.info("auth.step_up.failed", { user_id: session.userId, ip });
    return {
      ok: false,
      error: proof.code ? "That code is not right, or was used already." : "That password is not right.",
    };
  }
  await markAttemptSucceeded(attempt.id);
  await db.session.updateMany({ where: { id: session.id, userId: session.userId }, data: { verifiedAt: now } });
  log.info("auth.step_up", { user_id: session.userId, session_id: session.id, with: proof.code ? "code" : "password" });
  return { ok: true };
}

/** How this user can prove themselves in the dialog: a password, a two-factor code, or (neither) GitHub again. */
export async function stepUpMethods(userId: string) {
  const user = await db.user.findUnique({ where: { id: userId }, select: { passwordHash: true, totpEnabledAt: true } });
  return { password: Boolean(user?.passwordHash), twoFactor: Boolean(user?.totpEnabledAt) };
}
