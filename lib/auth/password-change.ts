import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { recordAudit, type Actor } from "../audit";
import { db } from "../db";
import { log } from "../log";
import { PasswordCheckBusy, passwordHasher } from "./password";
import { queuePasswordChangedNotice } from "./password-notice";
import { answerInSession } from "./session-answers";
import { endOtherSessions } from "./session-store";

// Changing the password from the account page. The current password is an
// answer of the signed-in session (lib/auth/session-answers.ts): a wrong one
// counts against that session, whose fifth ends it, so a stolen session cannot
// be used to guess it; and nobody else's failed sign-ins can refuse the owner.

export const WRONG_CURRENT_PASSWORD_MESSAGE = "That is not your current password.";
export const NO_PASSWORD_MESSAGE =
  "This account signs in with GitHub and has no password. Use “Forgot password?” on the sign-in page to set one.";

export const SAME_PASSWORD_MESSAGE = "That is your current password: choose a new one.";

export type ChangePasswordResult =
  { ok: true; otherSessionsEnded: number } | { ok: false; error: string; field?: "currentPassword" | "newPassword" };

/** Whether two typed passwords are the same, compared in constant time (by their digests, of equal length). */
function samePassword(a: string, b: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(a), digest(b));
}

export interface PasswordChange {
  actor: Actor;
  email: string;
  /** The session making the change: it stays signed in, every other one ends. */
  keepSessionId: string;
  currentPassword: string;
  newPassword: string;
}

/** Checks the current password, then sets the new one (already checked for strength) and ends the other sessions. */
export async function changePassword(change: PasswordChange, now = new Date()): Promise<ChangePasswordResult> {
  const { actor, email } = change;
  if (passwordHasher.saturated()) throw new PasswordCheckBusy();
  const user = await db.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { passwordHash: true } });
  if (!user.passwordHash) return { ok: false, error: NO_PASSWORD_MESSAGE };
  const answer = await answerInSession(
    { id: change.keepSessionId, userId: actor.userId },
    actor,
    () => passwordHasher.verify(user.passwordHash!, change.currentPassword),
    WRONG_CURRENT_PASSWORD_MESSAGE,
  );
  if (!answer.ok) {
    log.warn("auth.password_change.wrong_current", { user_id: actor.userId, ip: actor.ip, ended: answer.sessionEnded });
    return answer.sessionEnded
      ? { ok: false, error: answer.error }
      : { ok: false, field: "currentPassword", error: answer.error };
  }
  // Checked once the current one is proven: before, it would tell a guesser when they had typed it twice.
  // Nothing changes, so nothing is mailed or logged as a change (a new user's walk: it was).
  if (samePassword(change.currentPassword, change.newPassword))
    return { ok: false, field: "newPassword", error: SAME_PASSWORD_MESSAGE };

  const passwordHash = await passwordHasher.hash(change.newPassword);
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: actor.userId }, data: { passwordHash, passwordChangedAt: now } });
    // A reset link asked for before the change must not undo it, and a sign-in
    // made with the old password and waiting for its two-factor code ends.
    await tx.passwordReset.updateMany({ where: { userId: actor.userId, usedAt: null }, data: { usedAt: now } });
    await tx.pendingSignIn.deleteMany({ where: { userId: actor.userId } });
    await recordAudit(tx, actor, "auth.password_changed", null);
    await queuePasswordChangedNotice(tx, actor, email, now);
  });
  // Its own transaction (with its own audit row and the notices the signed-out
  // browsers see); if it failed, the password is changed all the same.
  const otherSessionsEnded = await endOtherSessions(actor, change.keepSessionId, "password_changed");
  log.info("auth.password_changed", { user_id: actor.userId, other_sessions_ended: otherSessionsEnded });
  return { ok: true, otherSessionsEnded };
}
