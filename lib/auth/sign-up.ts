import "server-only";
import { afterResponse } from "../after-response";
import { isDatabaseBusy } from "../database-busy";
import { db } from "../db";
import { getEnv } from "../env";
import { log } from "../log";
import { queueMail, utcHour } from "../mail/outbox";
import { runtime } from "../runtime/runtime";
import { isTokenShaped, newToken, tokenDigest } from "../security/token";
import { insertAccount, tryAgainAt } from "./accounts";
import { countedClient } from "./client-ip";
import { markAttemptSucceeded, recordAttempt, signInLockedUntil, signUpLimitedUntil } from "./attempts";
import { passwordHasher } from "./password";
import {
  SIGN_UP_ALREADY_DONE_MESSAGE,
  SIGN_UP_LINK_EXPIRED_MESSAGE,
  SIGN_UP_LINK_INVALID_MESSAGE,
  SIGN_UP_WRONG_PASSWORD_MESSAGE,
} from "./sign-up-messages";

// Sign-up in two steps, so the form answers the same for a new and a known
// address (nobody learns who has an account by trying to make one):
//
// 1. The form: for a new address, a PendingSignUp row (the password already
//    hashed, the link's token stored only as its SHA-256) and a mail with the
//    link; for a known address, a mail saying "you already have an account"
//    (at most one an hour). Both answer "check your inbox" after the same
//    Argon2 work; the rest runs after the response is sent.
// 2. The link: the person types the password again. Holding the mailbox alone
//    does not finish it, so someone who starts a sign-up with another
//    person's address cannot have that person confirm an account whose
//    password the starter knows (account pre-hijacking).

export const SIGN_UP_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Links an hour to one address asked for from one network. */
export const SIGN_UP_LINKS_PER_EMAIL_PER_HOUR = 3;

export type SignUpRequestResult = { ok: true } | { ok: false; error: string };

/** Step 1. `email` is normalised by signUpSchema and the password already passed the strength check. */
export async function requestSignUp(
  email: string,
  password: string,
  ip: string,
  now = new Date(),
): Promise<SignUpRequestResult> {
  // Recorded before it is checked, like a sign-in: a burst of concurrent
  // sign-ups sees itself, so it cannot all slip under the per-network limit.
  // That limit is said: it is about the asker, not the address.
  const attempt = await recordAttempt("sign_up", email, ip, false);
  const limitedUntil = await signUpLimitedUntil(ip, now, { afterThisAttempt: true });
  if (limitedUntil) {
    log.warn("auth.sign_up.rate_limited", { ip, retry_at: limitedUntil.toISOString() });
    return {
      ok: false,
      error: `Too many sign-ups from your network. Try again at ${limitedUntil.toISOString().slice(11, 16)} UTC.`,
    };
  }
  // The same Argon2 work for every address, before the answer; what depends on
  // the address (a known one, its limit, the row and the mail) runs after the
  // response is sent, so its time says nothing about the address.
  const passwordHash = await passwordHasher.hash(password);
  await markAttemptSucceeded(attempt.id);
  afterResponse("sign_up", () => sendSignUpMail(email, passwordHash, ip, now));
  return { ok: true };
}

/** The part of a sign-up that depends on the address: a link to finish, or a note that the account exists. */
async function sendSignUpMail(email: string, passwordHash: string, ip: string, now: Date) {
  const user = await db.user.findUnique({ where: { email }, select: { id: true } });
  if (user) {
    const queued = await queueMail(db, {
      kind: "account_exists",
      subject: user.id,
      period: utcHour(now),
      userId: user.id,
      to: email,
      data: { email },
    });
    log.info("auth.sign_up.known_address", { user_id: user.id, ip, mail: queued ? "queued" : "sent this hour" });
    if (queued) runtime().mailJob.wake();
    return;
  }
  // Counted per address and network (countedClient: an IPv4 address or an
  // IPv6 /64): someone else's sign-ups with this address cannot use up the
  // limit and keep its owner's link from coming.
  const client = countedClient(ip);
  const recent = await db.pendingSignUp.count({
    where: { email, client, createdAt: { gt: new Date(now.getTime() - 60 * 60 * 1000) } },
  });
  if (recent >= SIGN_UP_LINKS_PER_EMAIL_PER_HOUR) {
    log.warn("auth.sign_up.email_limited", { ip });
    return;
  }
  const token = newToken();
  await db.$transaction(async (tx) => {
    const pending = await tx.pendingSignUp.create({
      data: {
        tokenDigest: tokenDigest(token),
        email,
        passwordHash,
        ip,
        client,
        createdAt: now,
        expiresAt: new Date(now.getTime() + SIGN_UP_LINK_LIFETIME_MS),
      },
      select: { id: true },
    });
    await queueMail(
      tx,
      {
        kind: "confirm_sign_up",
        subject: email,
        period: pending.id,
        to: email,
        data: { email },
        link: `${getEnv().PUBLIC_BASE_URL}/sign-up/confirm?token=${token}`,
      },
      now,
    );
  });
  log.info("auth.sign_up.pending", { ip });
  runtime().mailJob.wake();
}

export type UsableSignUp = { ok: true; id: string; email: string } | { ok: false; error: string };

/** The pending sign-up a link's token stands for, if it can still be finished. Spends nothing. */
export async function findUsableSignUp(token: unknown, now = new Date()): Promise<UsableSignUp> {
  if (!isTokenShaped(token)) return { ok: false, error: SIGN_UP_LINK_INVALID_MESSAGE };
  const pending = await db.pendingSignUp.findUnique({
    where: { tokenDigest: tokenDigest(token) },
    select: { id: true, email: true, expiresAt: true },
  });
  if (!pending) return { ok: false, error: SIGN_UP_LINK_INVALID_MESSAGE };
  if (pending.expiresAt <= now) return { ok: false, error: SIGN_UP_LINK_EXPIRED_MESSAGE };
  return { ok: true, id: pending.id, email: pending.email };
}

export type ConfirmSignUpResult =
  { ok: true; userId: string; email: string } | { ok: false; error: string; field?: "password"; linkDead?: boolean };

/**
 * Step 2: the link's token and the password typed again. A wrong password
 * counts toward the sign-in lockout for the address and the network, like a
 * wrong password at sign-in. On success the account exists and every pending
 * sign-up of the address is gone, so each link works once.
 */
export async function confirmSignUp(
  token: unknown,
  password: string,
  ip: string,
  now = new Date(),
): Promise<ConfirmSignUpResult> {
  const usable = await findUsableSignUp(token, now);
  if (!usable.ok) return { ...usable, linkDead: true };
  const attempt = await recordAttempt("sign_in", usable.email, ip, false);
  const lockedUntil = await signInLockedUntil(usable.email, ip, now);
  if (lockedUntil) {
    log.warn("auth.sign_up.confirm_locked_out", { ip, retry_at: lockedUntil.toISOString() });
    return { ok: false, error: tryAgainAt(lockedUntil) };
  }
  const pending = await db.pendingSignUp.findUnique({ where: { id: usable.id }, select: { passwordHash: true } });
  if (!pending || !(await passwordHasher.verify(pending.passwordHash, password))) {
    log.info("auth.sign_up.confirm_failed", { ip });
    return { ok: false, field: "password", error: SIGN_UP_WRONG_PASSWORD_MESSAGE };
  }
  const made = await spendLinkAndMakeAccount(usable, pending.passwordHash);
  if (made === "spent") return { ok: false, error: SIGN_UP_LINK_INVALID_MESSAGE, linkDead: true };
  if (made === "taken") return { ok: false, error: SIGN_UP_ALREADY_DONE_MESSAGE, linkDead: true };
  await markAttemptSucceeded(attempt.id);
  log.info("auth.sign_up", { user_id: made.userId, ip });
  return { ok: true, userId: made.userId, email: usable.email };
}

/**
 * Spends the link and makes the account in one transaction: of two racing
 * confirmations, one deletes the row and goes on; and a database too busy to
 * finish (thrown on, for the action wrapper's "busy, try again") leaves the
 * link as it was, to be used again. Spent first and the account made after,
 * a busy moment between the two left a dead link and no account (the second
 * attack review of issue 30).
 */
async function spendLinkAndMakeAccount(
  usable: { id: string; email: string },
  passwordHash: string,
): Promise<{ userId: string } | "spent" | "taken"> {
  try {
    return await db.$transaction(async (tx) => {
      const spent = await tx.pendingSignUp.deleteMany({ where: { id: usable.id } });
      if (spent.count !== 1) return "spent" as const;
      // Every link for the address dies with this one, whether the account is made now or was before.
      await tx.pendingSignUp.deleteMany({ where: { email: usable.email } });
      if (await tx.user.findUnique({ where: { email: usable.email }, select: { id: true } })) return "taken" as const;
      const user = await insertAccount(tx, { email: usable.email, passwordHash });
      return { userId: user.id };
    });
  } catch (error) {
    if (isDatabaseBusy(error)) throw error;
    // Lost a race with another way in for the same address (the unique index): the account exists.
    await db.pendingSignUp.deleteMany({ where: { email: usable.email } });
    return "taken";
  }
}
