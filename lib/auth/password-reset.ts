import "server-only";
import { recordAudit, type Actor } from "../audit";
import { afterResponse } from "../after-response";
import { db } from "../db";
import { getEnv } from "../env";
import { log } from "../log";
import { queueMail } from "../mail/outbox";
import { runtime } from "../runtime/runtime";
import { isTokenShaped, newToken, tokenDigest } from "../security/token";
import { countedClient } from "./client-ip";
import { passwordHasher } from "./password";
import { queuePasswordChangedNotice } from "./password-notice";

// "Forgot password?": a link by mail that sets a new password once.
//
// - The answer is the same whether or not the address has an account, and
//   whether or not its own limit was reached, so the form cannot be used to
//   find out who has one (only the per-network limit is said: it is about the
//   asker, not the address). The same time too: the work that depends on the
//   address runs after the answer is sent.
// - The token is 32 random bytes; only its SHA-256 is stored, and the link
//   rides in the outbox sealed with ENCRYPTION_KEY until it is sent.
// - A link works once, for 30 minutes; using it ends every session of the
//   account and does not sign anyone in.

export const RESET_TOKEN_LIFETIME_MS = 30 * 60 * 1000;
export const RESET_WINDOW_MS = 60 * 60 * 1000;
export const RESETS_PER_EMAIL_PER_HOUR = 3;
export const RESETS_PER_IP_PER_HOUR = 10;

export const RESET_REQUESTED_MESSAGE =
  "If an account exists for that address, we sent a link to reset its password. It works once, within 30 minutes. Check your inbox (and spam folder).";

export type ResetRequestOutcome = { outcome: "accepted" } | { outcome: "ip_limited"; retryAt: Date };

/** How many reset requests matched in the window including now, and when the oldest counted one leaves it. */
async function recentRequests(where: { email: string } | { client: string }, now: Date) {
  const rows = await db.authAttempt.findMany({
    where: { kind: "password_reset", ...where, createdAt: { gt: new Date(now.getTime() - RESET_WINDOW_MS) } },
    orderBy: { createdAt: "asc" },
    select: { createdAt: true },
  });
  return { count: rows.length, oldest: rows[0]?.createdAt ?? now };
}

/**
 * Asks for a reset link. Every request is recorded first (so a burst sees
 * itself), whether or not the address has an account. The limits are counted
 * before the answer (the same queries for any address); whether the address
 * has an account, the link and its mail come after the response is sent, so
 * the response time says nothing about the address.
 */
export async function requestPasswordReset(email: string, ip: string, now = new Date()): Promise<ResetRequestOutcome> {
  // Counted per client (an IPv4 address or an IPv6 /64), the real address kept beside it.
  const client = countedClient(ip);
  await db.authAttempt.create({ data: { kind: "password_reset", email, ip, client, success: false, createdAt: now } });
  const byIp = await recentRequests({ client }, now);
  if (byIp.count > RESETS_PER_IP_PER_HOUR) {
    const retryAt = new Date(byIp.oldest.getTime() + RESET_WINDOW_MS);
    log.warn("auth.password_reset.ip_limited", { ip, retry_at: retryAt.toISOString() });
    return { outcome: "ip_limited", retryAt };
  }
  // Counted now, among the requests made so far (the same query for any address).
  const emailLimited = (await recentRequests({ email }, now)).count > RESETS_PER_EMAIL_PER_HOUR;
  afterResponse("password_reset", () => issueResetLink(email, ip, emailLimited, now));
  return { outcome: "accepted" };
}

/** The part of a reset request that depends on the address, run after the answer was sent. */
async function issueResetLink(email: string, ip: string, emailLimited: boolean, now: Date) {
  if (emailLimited) {
    log.warn("auth.password_reset.email_limited", { email, ip });
    return;
  }
  const user = await db.user.findUnique({ where: { email }, select: { id: true } });
  if (!user) {
    log.info("auth.password_reset.no_account", { ip });
    return;
  }
  const token = newToken();
  await db.$transaction(async (tx) => {
    const reset = await tx.passwordReset.create({
      data: {
        tokenDigest: tokenDigest(token),
        userId: user.id,
        ip,
        createdAt: now,
        expiresAt: new Date(now.getTime() + RESET_TOKEN_LIFETIME_MS),
      },
      select: { id: true },
    });
    await queueMail(
      tx,
      {
        kind: "password_reset",
        subject: email,
        period: reset.id,
        userId: user.id,
        to: email,
        data: { email },
        link: `${getEnv().PUBLIC_BASE_URL}/reset-password?token=${token}`,
      },
      now,
    );
  });
  log.info("auth.password_reset.requested", { user_id: user.id, ip });
  runtime().mailJob.wake();
}

export const RESET_LINK_INVALID_MESSAGE =
  "This reset link is not valid. Check that you copied all of it, or ask for a new one.";
export const RESET_LINK_EXPIRED_MESSAGE = "This reset link has expired: links work for 30 minutes. Ask for a new one.";
export const RESET_LINK_USED_MESSAGE = "This reset link was already used: each link works once. Ask for a new one.";

export type UsableReset = { ok: true; id: string; userId: string; email: string } | { ok: false; error: string };

/** The reset a link's token stands for, if it can still be used. */
export async function findUsableReset(token: unknown, now = new Date()): Promise<UsableReset> {
  if (!isTokenShaped(token)) return { ok: false, error: RESET_LINK_INVALID_MESSAGE };
  const reset = await db.passwordReset.findUnique({
    where: { tokenDigest: tokenDigest(token) },
    select: { id: true, userId: true, expiresAt: true, usedAt: true, user: { select: { email: true } } },
  });
  if (!reset) return { ok: false, error: RESET_LINK_INVALID_MESSAGE };
  if (reset.usedAt) return { ok: false, error: RESET_LINK_USED_MESSAGE };
  if (reset.expiresAt <= now) return { ok: false, error: RESET_LINK_EXPIRED_MESSAGE };
  return { ok: true, id: reset.id, userId: reset.userId, email: reset.user.email };
}

/**
 * Sets the new password (already checked for strength) from a usable reset.
 * The token is spent by a conditional update (where it is still unused and
 * unexpired), so of two racing uses exactly one wins. Every session of the
 * account ends, every other reset link dies, and nobody is signed in.
 */
export async function resetPassword(
  reset: { id: string; userId: string; email: string },
  newPassword: string,
  from: { ip: string | null; userAgent: string | null },
  now = new Date(),
): Promise<{ ok: true; sessionsEnded: number } | { ok: false; error: string }> {
  const passwordHash = await passwordHasher.hash(newPassword);
  const actor: Actor = { userId: reset.userId, ...from };
  const sessionsEnded = await db.$transaction(async (tx) => {
    const spent = await tx.passwordReset.updateMany({
      where: { id: reset.id, userId: reset.userId, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (spent.count !== 1) return null;
    await tx.passwordReset.updateMany({ where: { userId: reset.userId, usedAt: null }, data: { usedAt: now } });
    await tx.user.update({ where: { id: reset.userId }, data: { passwordHash, passwordChangedAt: now } });
    const ended = await endAllSessions(tx, reset.userId);
    await recordAudit(tx, actor, "auth.password_reset", null, { sessions_ended: ended });
    await queuePasswordChangedNotice(tx, actor, reset.email, now);
    return ended;
  });
  if (sessionsEnded === null) return { ok: false, error: RESET_LINK_USED_MESSAGE };
  log.info("auth.password_reset", { user_id: reset.userId, sessions_ended: sessionsEnded });
  return { ok: true, sessionsEnded };
}

type Tx = Parameters<Parameters<typeof db.$transaction>[0]>[0];

/**
 * Ends every session of the user, the one asking included, and every sign-in
 * still waiting for its two-factor code: whoever held the old password is out.
 */
async function endAllSessions(tx: Tx, userId: string): Promise<number> {
  await tx.pendingSignIn.deleteMany({ where: { userId } });
  return (await tx.session.deleteMany({ where: { userId } })).count;
}
