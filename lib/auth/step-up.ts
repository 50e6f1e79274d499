import "server-only";
import { failure, type ActionResult } from "../action-result";
import type { Actor } from "../audit";
import { db } from "../db";
import { log } from "../log";
import { dummyPasswordHash, PasswordCheckBusy, passwordHasher } from "./password";
import { endSessionAfterStepUpFailures, type ActiveSession } from "./session-store";
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

/** Wrong answers in a row that end the session (and mail its owner). */
export const STEP_UP_MAX_FAILURES = 5;
export const STEP_UP_CODE_NEEDED = "Two-factor sign-in is on: enter a code from your app, or a recovery code.";
export const STEP_UP_SESSION_ENDED =
  "Five wrong answers: this session is signed out, and the account’s owner was emailed. Sign in again.";

export type StepUpResult = { ok: true } | { ok: false; error: string; sessionEnded?: true };

/**
 * Checks a password or a two-factor code for the signed-in user and, when it
 * is right, marks the session verified now. With two-factor on, only a code
 * (or a recovery code) will do: a password alone is what a phished or
 * shoulder-surfed owner loses first.
 *
 * Wrong answers count against this session only, never toward the sign-in
 * lockout, and no lockout is consulted: the dialog runs inside a session that
 * already signed in, so failures elsewhere (someone guessing this email's
 * password, or another account's from the owner's shared address) cannot stop
 * its owner from revoking a leaked key. Guessing stays bounded: each answer is
 * counted before it is checked (racing answers see each other), and the
 * fifth wrong one in a row ends the session and mails its owner.
 */
export async function proveIdentity(
  session: ActiveSession,
  proof: StepUpProof,
  actor: Actor,
  now = new Date(),
): Promise<StepUpResult> {
  const methods = await stepUpMethods(session.userId);
  if (methods.twoFactor && !proof.code) return { ok: false, error: STEP_UP_CODE_NEEDED };
  // Refused before it counts as an answer, as at sign-in: the caller answers "try again in a moment".
  if (proof.password && !proof.code && passwordHasher.saturated()) throw new PasswordCheckBusy();
  const counted = await db.session.updateMany({
    where: { id: session.id, userId: session.userId, stepUpFailures: { lt: STEP_UP_MAX_FAILURES } },
    data: { stepUpFailures: { increment: 1 } },
  });
  if (counted.count === 0) return endAfterFailures(session, actor);
  if (await uncountedIfBusy(session, () => proofHolds(session.userId, proof, now))) {
    await db.session.updateMany({
      where: { id: session.id, userId: session.userId },
      data: { verifiedAt: now, stepUpFailures: 0 },
    });
    log.info("auth.step_up", {
      user_id: session.userId,
      session_id: session.id,
      with: proof.code ? "code" : "password",
    });
    return { ok: true };
  }
  const row = await db.session.findUnique({ where: { id: session.id }, select: { stepUpFailures: true } });
  const failures = row?.stepUpFailures ?? STEP_UP_MAX_FAILURES;
  log.info("auth.step_up.failed", { user_id: session.userId, session_id: session.id, ip: actor.ip, failures });
  if (failures >= STEP_UP_MAX_FAILURES) return endAfterFailures(session, actor);
  const left = STEP_UP_MAX_FAILURES - failures;
  const wrong = proof.code ? "That code is not right, or was used already." : "That password is not right.";
  return {
    ok: false,
    error: `${wrong} ${left === 1 ? "One more wrong answer signs" : `${left} more wrong answers sign`} this session out.`,
  };
}

async function proofHolds(userId: string, proof: StepUpProof, now: Date): Promise<boolean> {
  if (proof.code) return (await verifySecondFactor(userId, proof.code, now)) !== null;
  if (!proof.password) return false;
  const user = await db.user.findUnique({ where: { id: userId }, select: { passwordHash: true } });
  const matches = await passwordHasher.verify(user?.passwordHash ?? dummyPasswordHash(), proof.password);
  return Boolean(user?.passwordHash) && matches;
}

/** A password check refused for a full queue was no answer: it does not count. */
async function uncountedIfBusy(session: ActiveSession, check: () => Promise<boolean>): Promise<boolean> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof PasswordCheckBusy) {
      await db.session.updateMany({
        where: { id: session.id, stepUpFailures: { gt: 0 } },
        data: { stepUpFailures: { decrement: 1 } },
      });
    }
    throw error;
  }
}

async function endAfterFailures(session: ActiveSession, actor: Actor): Promise<StepUpResult> {
  if (await endSessionAfterStepUpFailures(actor, session.id)) {
    log.warn("auth.step_up.session_ended", { user_id: session.userId, session_id: session.id, ip: actor.ip });
  }
  return { ok: false, error: STEP_UP_SESSION_ENDED, sessionEnded: true };
}

/** How this user can prove themselves in the dialog: a password, a two-factor code, or (neither) GitHub again. */
export async function stepUpMethods(userId: string) {
  const user = await db.user.findUnique({ where: { id: userId }, select: { passwordHash: true, totpEnabledAt: true } });
  return { password: Boolean(user?.passwordHash), twoFactor: Boolean(user?.totpEnabledAt) };
}
