import "server-only";
import type { Actor } from "../audit";
import { db } from "../db";
import { log } from "../log";
import { PasswordCheckBusy } from "./password";
import { endSessionAfterStepUpFailures } from "./session-store";

// Answers a signed-in session gives to prove its user again: the "confirm
// it's you" dialog (lib/auth/step-up.ts), the code that turns two-factor off,
// the current password on the change-password form. Wrong ones count against
// that session only (Session.stepUpFailures), never toward the sign-in
// lockout, and no lockout is consulted: the session already signed in, so
// failures elsewhere (someone guessing this email's password, or another
// account's from the owner's shared address) cannot keep its owner from
// revoking a leaked key. Guessing stays bounded: each answer is counted
// before it is checked (racing answers see each other), and the fifth wrong
// one in a row ends the session and mails its owner.

/** Wrong answers in a row that end the session (and mail its owner). */
export const SESSION_MAX_WRONG_ANSWERS = 5;
export const SESSION_ENDED_BY_ANSWERS =
  "Five wrong answers: this session is signed out, and the account’s owner was emailed. Sign in again.";

export type SessionAnswer = { ok: true } | { ok: false; sessionEnded: boolean; error: string };

/**
 * Counts one answer of `session`, then runs `check`: a right answer resets
 * the count. `wrong` is what a wrong answer is told, before how many are left.
 * A check refused for a full password queue (PasswordCheckBusy) is no answer:
 * it is taken back and rethrown.
 */
export async function answerInSession(
  session: { id: string; userId: string },
  actor: Actor,
  check: () => Promise<boolean>,
  wrong: string,
): Promise<SessionAnswer> {
  const counted = await db.session.updateMany({
    where: { id: session.id, userId: session.userId, stepUpFailures: { lt: SESSION_MAX_WRONG_ANSWERS } },
    data: { stepUpFailures: { increment: 1 } },
  });
  if (counted.count === 0) return endAfterWrongAnswers(session, actor);
  if (await uncountedIfBusy(session.id, check)) {
    await db.session.updateMany({ where: { id: session.id, userId: session.userId }, data: { stepUpFailures: 0 } });
    return { ok: true };
  }
  const row = await db.session.findUnique({ where: { id: session.id }, select: { stepUpFailures: true } });
  const failures = row?.stepUpFailures ?? SESSION_MAX_WRONG_ANSWERS;
  log.info("auth.session_answer.wrong", { user_id: session.userId, session_id: session.id, ip: actor.ip, failures });
  if (failures >= SESSION_MAX_WRONG_ANSWERS) return endAfterWrongAnswers(session, actor);
  const left = SESSION_MAX_WRONG_ANSWERS - failures;
  const warning = left === 1 ? "One more wrong answer signs" : `${left} more wrong answers sign`;
  return { ok: false, sessionEnded: false, error: `${wrong} ${warning} this session out.` };
}

async function uncountedIfBusy(sessionId: string, check: () => Promise<boolean>): Promise<boolean> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof PasswordCheckBusy) {
      await db.session.updateMany({
        where: { id: sessionId, stepUpFailures: { gt: 0 } },
        data: { stepUpFailures: { decrement: 1 } },
      });
    }
    throw error;
  }
}

async function endAfterWrongAnswers(session: { id: string; userId: string }, actor: Actor): Promise<SessionAnswer> {
  if (await endSessionAfterStepUpFailures(actor, session.id)) {
    log.warn("auth.session_answer.session_ended", { user_id: session.userId, session_id: session.id, ip: actor.ip });
  }
  return { ok: false, sessionEnded: true, error: SESSION_ENDED_BY_ANSWERS };
}
