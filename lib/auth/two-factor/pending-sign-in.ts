import "server-only";
import { cookies } from "next/headers";
import { db } from "../../db";
import { getEnv } from "../../env";
import { newToken, tokenDigest } from "../../security/token";
import { cleanUserAgent } from "../../text";
import { cookieOptions, isHttps } from "../cookies";

// The step between a right password and a signed-in browser, for an account
// with two-factor sign-in: a PendingSignIn row for 10 minutes, found by the
// SHA-256 of a token the browser holds in its own short-lived cookie. The
// password is not asked again on the code page, and nothing but the row says
// the password was right, so the cookie alone signs nobody in.

export const PENDING_SIGN_IN_MS = 10 * 60 * 1000;

const cookieName = (baseUrl: string) => (isHttps(baseUrl) ? "__Host-keyport.sign-in" : "keyport.sign-in");

export async function startPendingSignIn(
  userId: string,
  ip: string,
  userAgent: string | null,
  callbackUrl: string,
  now = new Date(),
) {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + PENDING_SIGN_IN_MS);
  await db.pendingSignIn.deleteMany({ where: { OR: [{ userId }, { expiresAt: { lte: now } }] } });
  await db.pendingSignIn.create({
    data: {
      tokenDigest: tokenDigest(token),
      userId,
      ip,
      userAgent: cleanUserAgent(userAgent),
      callbackUrl,
      expiresAt,
    },
  });
  const baseUrl = getEnv().PUBLIC_BASE_URL;
  (await cookies()).set(cookieName(baseUrl), token, { ...cookieOptions(baseUrl), expires: expiresAt });
}

/** The pending sign-in this browser holds, if it is still good. */
export async function currentPendingSignIn(now = new Date()) {
  const token = (await cookies()).get(cookieName(getEnv().PUBLIC_BASE_URL))?.value;
  if (!token || token.length > 128) return null;
  const row = await db.pendingSignIn.findUnique({
    where: { tokenDigest: tokenDigest(token) },
    select: { id: true, userId: true, callbackUrl: true, expiresAt: true, user: { select: { email: true } } },
  });
  return row && row.expiresAt > now ? row : null;
}

/** Ends the pending step (signed in, or abandoned); true when this call was the one that ended it. */
export async function finishPendingSignIn(id: string): Promise<boolean> {
  (await cookies()).delete(cookieName(getEnv().PUBLIC_BASE_URL));
  return (await db.pendingSignIn.deleteMany({ where: { id } })).count === 1;
}
