import "server-only";
import { db } from "../db";
import { getEnv } from "../env";
import { SIGN_IN_MAX_FAILURES, SIGN_IN_WINDOW_MS, SIGN_UP_WINDOW_MS } from "./limits";

type Kind = "sign_in" | "sign_up";

export function recordAttempt(kind: Kind, email: string, ip: string, success: boolean) {
  return db.authAttempt.create({ data: { kind, email, ip, success }, select: { id: true } });
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
 * After 10 failed sign-ins for one email, or from one IP, within 15 minutes,
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
  const byIp = await freedAt({ kind: "sign_in", success: false, ip }, count, SIGN_IN_WINDOW_MS, now);
  if (!byEmail) return byIp;
  if (!byIp) return byEmail;
  return byEmail > byIp ? byEmail : byIp;
}

/** SIGN_UP_LIMIT_PER_HOUR (default 5) sign-ups an hour from one IP; the next waits until the time returned. */
export function signUpLimitedUntil(
  ip: string,
  now = new Date(),
  { afterThisAttempt = false } = {},
): Promise<Date | null> {
  const limit = getEnv().SIGN_UP_LIMIT_PER_HOUR;
  return freedAt({ kind: "sign_up", ip }, afterThisAttempt ? limit + 1 : limit, SIGN_UP_WINDOW_MS, now);
}
