import "server-only";
import { db } from "../db";
import { getEnv } from "../env";
import { countedClient } from "./client-ip";
import { SIGN_IN_MAX_FAILURES, SIGN_IN_WINDOW_MS, SIGN_UP_WINDOW_MS } from "./limits";

type Kind = "sign_in" | "sign_up";

/**
 * `ip` is the real address (kept for an operator); the counts below go by the
 * client it counts as (countedClient: an IPv4 address or an IPv6 /64).
 * `device`: the id of a device cookie the browser holds for this email
 * (lib/auth/device-cookie.ts), if any.
 */
export function recordAttempt(kind: Kind, email: string, ip: string, success: boolean, device: string | null = null) {
  return db.authAttempt.create({
    data: { kind, email, ip, client: countedClient(ip), success, device },
    select: { id: true },
  });
}

export async function markAttemptSucceeded(id: string): Promise<void> {
  await db.authAttempt.update({ where: { id }, data: { success: true } });
}

/** When the oldest of the last `max` matching attempts leaves the window, or null if fewer. */
async function freedAt(where: object, max: number, windowMs: number, now: Date): Promise<Date | null> {
  const recent = await db.authAttempt.findMany({
    where: { ...where, createdAt: { gt: new Date(now.getTime() - windowMs) } },
    orderBy: { createdAt: "desc" },
    take: max,
    select: { createdAt: true },
  });
  const oldest = recent[max - 1];
  return oldest ? new Date(oldest.createdAt.getTime() + windowMs) : null;
}

/**
 * After 10 failed sign-ins for one email, or from one client (an IPv4 address
 * or an IPv6 /64: countedClient), within 15 minutes,
 * sign-in is refused (even with the right password) until the time returned.
 * Called after the current attempt was recorded as a failure: it is locked
 * when 10 failures came before it (afterThisAttempt: when this one makes 10).
 */
export async function signInLockedUntil(
  email: string,
  ip: string,
  now = new Date(),
  { afterThisAttempt = false } = {},
): Promise<Date | null> {
  const count = afterThisAttempt ? SIGN_IN_MAX_FAILURES : SIGN_IN_MAX_FAILURES + 1;
  const byEmail = await freedAt({ kind: "sign_in", success: false, email }, count, SIGN_IN_WINDOW_MS, now);
  const client = countedClient(ip);
  const byIp = await freedAt({ kind: "sign_in", success: false, client }, count, SIGN_IN_WINDOW_MS, now);
  if (!byEmail) return byIp;
  if (!byIp) return byEmail;
  return byEmail > byIp ? byEmail : byIp;
}

/**
 * The lockout for a sign-in attempt (password or two-factor code), as
 * signInLockedUntil counts it, except from a browser that holds a device
 * cookie for this email: its failures are counted per email and device, and
 * nobody else's count. Anyone can fill the email-wide and address-wide counts
 * by guessing; only someone who signed in to this email from this browser
 * before holds its device's count.
 */
export function signInLockedUntilFor(
  email: string,
  ip: string,
  device: string | null,
  now = new Date(),
  { afterThisAttempt = false } = {},
): Promise<Date | null> {
  if (!device) return signInLockedUntil(email, ip, now, { afterThisAttempt });
  const count = afterThisAttempt ? SIGN_IN_MAX_FAILURES : SIGN_IN_MAX_FAILURES + 1;
  return freedAt({ kind: "sign_in", success: false, email, device }, count, SIGN_IN_WINDOW_MS, now);
}

/**
 * SIGN_UP_LIMIT_PER_HOUR (default 5) sign-ups an hour from one client
 * (countedClient); the next waits until the time returned.
 */
export function signUpLimitedUntil(
  ip: string,
  now = new Date(),
  { afterThisAttempt = false } = {},
): Promise<Date | null> {
  const limit = getEnv().SIGN_UP_LIMIT_PER_HOUR;
  return freedAt(
    { kind: "sign_up", client: countedClient(ip) },
    afterThisAttempt ? limit + 1 : limit,
    SIGN_UP_WINDOW_MS,
    now,
  );
}
