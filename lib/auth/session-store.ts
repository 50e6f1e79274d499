import "server-only";
import { randomBytes } from "node:crypto";
import { recordAudit, type Actor } from "../audit";
import { db } from "../db";
import { queueNewSignIn, queueStepUpFailed } from "../mail/account-notices";
import { tokenDigest } from "../security/token";
import { cleanUserAgent } from "../text";
import { adoptLegacySession, deleteLegacySession, hashLegacyTokens, writeLegacyToken } from "./legacy-session-token";
import { SESSION_ABSOLUTE_LIFETIME_MS, SESSION_IDLE_TIMEOUT_MS, SESSION_TOUCH_INTERVAL_MS } from "./limits";

// Server-side sessions behind next-auth's cookie. next-auth 4 will not use its
// database strategy with the Credentials provider, so it keeps the "jwt"
// strategy while lib/auth/options.ts swaps the JWT for the token minted here:
// 32 bytes from the CSPRNG, base64url. The cookie carries only that token;
// the table keeps only its SHA-256 (tokenHash), like every other bearer secret
// (lib/security/token.ts), so a copy of the table signs nobody in; and it
// decides whether the token is still good, so deleting a row ends the session
// everywhere at once.

export interface ActiveSession {
  id: string;
  userId: string;
  email: string;
  /** The cookie's token, as the browser sent it: never stored. */
  sessionToken: string;
}

export function newSessionToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Creates the session row at sign-in, with its activity-log entry in the same
 * transaction. Returns the row and the token for the cookie, which only the
 * caller ever holds.
 */
export async function createSession(userId: string, ip: string, userAgent: string | null, now = new Date()) {
  const sessionToken = newSessionToken();
  const session = await db.$transaction(async (tx) => {
    const session = await tx.session.create({
      data: {
        tokenHash: tokenDigest(sessionToken),
        userId,
        ip,
        userAgent: cleanUserAgent(userAgent),
        createdAt: now,
        lastSeenAt: now,
        expires: new Date(now.getTime() + SESSION_ABSOLUTE_LIFETIME_MS),
      },
    });
    // Before this sign-in's own audit row, which would make every browser and IP look seen.
    await queueNewSignIn(tx, session, now);
    await recordAudit(tx, { userId, ip, userAgent }, "auth.sign_in", null);
    return session;
  });
  await writeLegacyToken(session.id, sessionToken);
  return { ...session, sessionToken };
}

const sessionFields = { id: true, userId: true, expires: true, lastSeenAt: true, user: { select: { email: true } } };

/**
 * The session a cookie token stands for, or null when there is none, it was
 * ended, it passed its absolute lifetime (30 days from sign-in) or it sat idle
 * for 7 days. Records activity at most once a minute.
 */
export async function readSession(sessionToken: string | undefined, now = new Date()): Promise<ActiveSession | null> {
  if (!sessionToken || sessionToken.length > 128) return null;
  const tokenHash = tokenDigest(sessionToken);
  let row = await db.session.findUnique({ where: { tokenHash }, select: sessionFields });
  // During a rolling deploy, a session the previous release made has no hash until its first use here.
  if (!row && (await adoptLegacySession(sessionToken))) {
    row = await db.session.findUnique({ where: { tokenHash }, select: sessionFields });
  }
  if (!row) return null;
  const idleSince = now.getTime() - row.lastSeenAt.getTime();
  if (row.expires <= now || idleSince > SESSION_IDLE_TIMEOUT_MS) {
    await db.session.deleteMany({ where: { id: row.id } });
    return null;
  }
  if (idleSince > SESSION_TOUCH_INTERVAL_MS) {
    await db.session.updateMany({ where: { id: row.id }, data: { lastSeenAt: now } });
  }
  return { id: row.id, userId: row.userId, email: row.user.email, sessionToken };
}

export async function deleteSessionByToken(sessionToken: string): Promise<void> {
  await db.session.deleteMany({ where: { tokenHash: tokenDigest(sessionToken) } });
  await deleteLegacySession(sessionToken);
}

export function listSessions(userId: string, now = new Date()) {
  return db.session.findMany({
    where: {
      userId,
      expires: { gt: now },
      lastSeenAt: { gt: new Date(now.getTime() - SESSION_IDLE_TIMEOUT_MS) },
    },
    orderBy: { lastSeenAt: "desc" },
    select: { id: true, createdAt: true, lastSeenAt: true, ip: true, userAgent: true },
  });
}

// How long a browser signed out from elsewhere can still be told why.
const ENDED_NOTICE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export type EndReason = "ended_elsewhere" | "all_others_ended" | "password_changed" | "step_up_failed";

type Tx = Parameters<Parameters<typeof db.$transaction>[0]>[0];

/**
 * Deletes the actor's sessions that `where` picks, and leaves a short-lived
 * record of each (by the token's digest), so the browser that held it learns
 * on the sign-in page why it was signed out. One transaction with its audit row.
 */
async function endSessionsWhere(
  actor: Actor,
  where: { id: string | { not: string } },
  reason: EndReason,
  alsoInTransaction?: (tx: Tx, now: Date) => Promise<void>,
) {
  const now = new Date();
  // Each ended session leaves a notice found by its hash: none may lack one (a rolling deploy's leftovers).
  await hashLegacyTokens(actor.userId);
  return db.$transaction(async (tx: Tx) => {
    const ended = await tx.session.findMany({
      where: { userId: actor.userId, ...where },
      select: { id: true, tokenHash: true },
    });
    if (ended.length === 0) return 0;
    const deleted = await tx.session.deleteMany({
      where: { userId: actor.userId, id: { in: ended.map((s) => s.id) } },
    });
    // Another request ended them between the read and the delete: it records the rest.
    if (deleted.count === 0) return 0;
    await tx.endedSession.deleteMany({ where: { expiresAt: { lte: now } } });
    await tx.endedSession.createMany({
      data: ended.map((session) => ({
        tokenDigest: session.tokenHash,
        userId: actor.userId,
        reason,
        endedAt: now,
        endedFromIp: actor.ip,
        endedFromUa: cleanUserAgent(actor.userAgent),
        expiresAt: new Date(now.getTime() + ENDED_NOTICE_LIFETIME_MS),
      })),
    });
    await recordAudit(tx, actor, "auth.sessions_ended", null, { count: ended.length, reason });
    await alsoInTransaction?.(tx, now);
    return ended.length;
  });
}

/** Ends one of the actor's sessions; another user's session id matches nothing. */
export async function endSession(actor: Actor, sessionId: string): Promise<boolean> {
  return (await endSessionsWhere(actor, { id: sessionId }, "ended_elsewhere")) === 1;
}

export async function endOtherSessions(
  actor: Actor,
  keepSessionId: string,
  reason: "all_others_ended" | "password_changed" = "all_others_ended",
): Promise<number> {
  return endSessionsWhere(actor, { id: { not: keepSessionId } }, reason);
}

/**
 * Ends a session that answered the "confirm it's you" dialog wrongly too
 * often, and mails its owner, in one transaction: true for the one call that
 * ended it, however many wrong answers raced to.
 */
export async function endSessionAfterStepUpFailures(actor: Actor, sessionId: string): Promise<boolean> {
  const ended = await endSessionsWhere(actor, { id: sessionId }, "step_up_failed", (tx, now) =>
    queueStepUpFailed(tx, { id: sessionId, userId: actor.userId }, actor, now),
  );
  return ended === 1;
}

export interface EndedSessionNotice {
  reason: EndReason;
  endedAt: Date;
  endedFromIp: string | null;
  endedFromUa: string | null;
}

/** Why the session behind this (dead) cookie token ended, if it was ended from another device lately. */
export async function endedSessionNotice(sessionToken: string | undefined, now = new Date()) {
  if (!sessionToken || sessionToken.length > 128) return null;
  const row = await db.endedSession.findUnique({ where: { tokenDigest: tokenDigest(sessionToken) } });
  if (!row || row.expiresAt <= now) return null;
  return {
    reason: row.reason as EndReason,
    endedAt: row.endedAt,
    endedFromIp: row.endedFromIp,
    endedFromUa: row.endedFromUa,
  } satisfies EndedSessionNotice;
}
