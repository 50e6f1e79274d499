import "server-only";
import type { Actor } from "../audit";
import { db } from "../db";
import { log } from "../log";
import { dummyPasswordHash, PasswordCheckBusy, passwordHasher } from "./password";
import { answerInSession, SESSION_MAX_WRONG_ANSWERS } from "./session-answers";
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

export interface StepUpProof {
  password?: string | undefined;
  code?: string | undefined;
}

export const STEP_UP_MAX_FAILURES = SESSION_MAX_WRONG_ANSWERS;
export const STEP_UP_CODE_NEEDED = "Two-factor sign-in is on: enter a code from your app, or a recovery code.";

export type StepUpResult = { ok: true } | { ok: false; error: string; sessionEnded?: boolean };

/**
 * Checks a password or a two-factor code for the signed-in user and, when it
 * is right, marks the session verified now. With two-factor on, only a code
 * (or a recovery code) will do: a password alone is what a phished or
 * shoulder-surfed owner loses first. Wrong answers count against this session
 * only, and no sign-in lockout is consulted (lib/auth/session-answers.ts):
 * nobody else's failures can stop the owner from revoking a leaked key.
 */
export async function proveIdentity(
  session: ActiveSession,
  proof: StepUpProof,
  actor: Actor,
  now = new Date(),
): Promise<StepUpResult> {
  const methods = await stepUpMethods(session.userId);
  // Not counted: nothing was checked, and the dialog asks for a code in the first place.
  if (methods.twoFactor && !proof.code) return { ok: false, error: STEP_UP_CODE_NEEDED };
  // Refused before it counts as an answer, as at sign-in: the caller answers "try again in a moment".
  if (proof.password && !proof.code && passwordHasher.saturated()) throw new PasswordCheckBusy();
  const wrong = proof.code ? "That code is not right, or was used already." : "That password is not right.";
  const answer = await answerInSession(session, actor, () => proofHolds(session.userId, proof, now), wrong);
  if (!answer.ok) return answer;
  await db.session.updateMany({ where: { id: session.id, userId: session.userId }, data: { verifiedAt: now } });
  log.info("auth.step_up", { user_id: session.userId, session_id: session.id, with: proof.code ? "code" : "password" });
  return { ok: true };
}

async function proofHolds(userId: string, proof: StepUpProof, now: Date): Promise<boolean> {
  if (proof.code) return (await verifySecondFactor(userId, proof.code, now)) !== null;
  if (!proof.password) return false;
  const user = await db.user.findUnique({ where: { id: userId }, select: { passwordHash: true } });
  const matches = await passwordHasher.verify(user?.passwordHash ?? dummyPasswordHash(), proof.password);
  return Boolean(user?.passwordHash) && matches;
}

/** How this user can prove themselves in the dialog: a password, a two-factor code, or (neither) GitHub again. */
export async function stepUpMethods(userId: string) {
  const user = await db.user.findUnique({ where: { id: userId }, select: { passwordHash: true, totpEnabledAt: true } });
  return { password: Boolean(user?.passwordHash), twoFactor: Boolean(user?.totpEnabledAt) };
}
