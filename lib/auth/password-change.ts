import "server-only";
import { recordAudit, type Actor } from "../audit";
import { db } from "../db";
import { log } from "../log";
import { tryAgainAt } from "./accounts";
import { markAttemptSucceeded, recordAttempt, signInLockedUntil } from "./attempts";
import { PasswordCheckBusy, passwordHasher } from "./password";
import { queuePasswordChangedNotice } from "./password-notice";
import { endOtherSessions } from "./session-store";

// Changing the password from the account page. The current password is
// checked like a sign-in: a wrong one is a failed sign-in attempt and counts
// toward the lockout, so a stolen session cannot be used to guess it.

export const WRONG_CURRENT_PASSWORD_MESSAGE = "That is not your current password.";
export const NO_PASSWORD_MESSAGE =
  "This account signs in with GitHub and has no password. Use “Forgot password?” on the sign-in page to set one.";

export type ChangePasswordResult =
  { ok: true; otherSessionsEnded: number } | { ok: false; error: string; field?: "currentPassword" };

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
  const ip = actor.ip ?? "unknown";
  if (passwordHasher.saturated()) throw new PasswordCheckBusy();
  const attempt = await recordAttempt("sign_in", email, ip, false);
  const lockedUntil = await signInLockedUntil(email, ip, now);
  if (lockedUntil) {
    log.warn("auth.password_change.locked_out", { user_id: actor.userId, ip, retry_at: lockedUntil.toISOString() });
    return { ok: false, error: tryAgainAt(lockedUntil) };
  }
  const user = await db.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { passwordHash: true } });
  if (!user.passwordHash) return { ok: false, error: NO_PASSWORD_MESSAGE };
  if (!(await passwordHasher.verify(user.passwordHash, change.currentPassword))) {
    const nowLocked = await signInLockedUntil(email, ip, now, { afterThisAttempt: true });
    log.warn("auth.password_change.wrong_current", { user_id: actor.userId, ip, locked: nowLocked !== null });
    return { ok: false, field: "currentPassword", error: WRONG_CURRENT_PASSWORD_MESSAGE };
  }
  await markAttemptSucceeded(attempt.id);

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
  const otherSessionsEnded = await endOtherSessions(actor, change.keepSessionId);
  log.info("auth.password_changed", { user_id: actor.userId, other_sessions_ended: otherSessionsEnded });
  return { ok: true, otherSessionsEnded };
}
