import "server-only";
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { cookies } from "next/headers";
import { getEnv } from "../env";
import { cookieOptions, isHttps } from "./cookies";

// Device cookies, as OWASP's "Slow Down Online Guessing Attacks with Device
// Cookies" describes them: a browser that signs in successfully gets a cookie
// naming the account's email, signed with a key derived from AUTH_SECRET. At
// sign-in, a browser presenting one for the email it types is counted apart
// (lib/auth/attempts.ts): its failures lock only that device for that email,
// and the email-wide and address-wide lockouts, which anyone can trigger by
// guessing, do not apply to it. Without one, both lockouts apply as before,
// so guessing from any other browser is limited exactly as it was.
//
// The cookie is no bearer secret: it signs nobody in and skips no password;
// it lets its browser keep trying at one owner's pace (10 failures in 15
// minutes) while strangers are locked out. It is bound to one email, so an
// attacker's own cookie is worth nothing for anyone else's account, and it
// cannot be made without AUTH_SECRET. Nothing of it is stored: an attempt
// records the SHA-256 of its random part, to count that device.

export const DEVICE_COOKIE_LIFETIME_MS = 180 * 24 * 60 * 60 * 1000;
const VERSION = "1";

export const deviceCookieName = (baseUrl: string) => (isHttps(baseUrl) ? "__Host-keyport.device" : "keyport.device");

function signature(secret: string, email: string, nonce: string, issuedAt: string): string {
  // A key of its own, so a device cookie's signature is never one next-auth's secret makes elsewhere.
  const key = createHmac("sha256", secret).update("keyport device cookie").digest();
  return createHmac("sha256", key).update(`${VERSION}|${email}|${nonce}|${issuedAt}`).digest("base64url");
}

/** A new device cookie's value for `email` (already normalised): version, random part, issue time, signature. */
export function mintDeviceCookie(email: string, secret: string, now = Date.now()): string {
  const nonce = randomBytes(16).toString("base64url");
  const issuedAt = Math.floor(now / 1000).toString(36);
  return `${VERSION}.${nonce}.${issuedAt}.${signature(secret, email, nonce, issuedAt)}`;
}

/**
 * The id a device's attempts are counted by (the SHA-256 of the cookie's
 * random part), when `value` is a cookie signed for `email` and younger than
 * its lifetime; null for anything else (another email's, forged, expired).
 */
export function deviceIdFor(value: string | undefined, email: string, secret: string, now = Date.now()) {
  if (!value || value.length > 128) return null;
  const [version, nonce, issuedAt, given, ...rest] = value.split(".");
  if (version !== VERSION || rest.length > 0 || !nonce || !issuedAt || !given) return null;
  if (!/^[A-Za-z0-9_-]{22}$/.test(nonce) || !/^[0-9a-z]{1,9}$/.test(issuedAt)) return null;
  const issued = parseInt(issuedAt, 36) * 1000;
  if (issued > now + 60_000 || now - issued >= DEVICE_COOKIE_LIFETIME_MS) return null;
  const expected = Buffer.from(signature(secret, email, nonce, issuedAt));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  return createHash("sha256").update(nonce, "utf8").digest("hex");
}

function authSecret(): string {
  const secret = getEnv().AUTH_SECRET;
  if (!secret) throw new Error("AUTH_SECRET is not set."); // the environment check refuses to start without it
  return secret;
}

/** The device this browser is for `email`, if it holds a good device cookie for it. */
export async function currentDevice(email: string): Promise<string | null> {
  const value = (await cookies()).get(deviceCookieName(getEnv().PUBLIC_BASE_URL))?.value;
  return deviceIdFor(value, email, authSecret());
}

/** After a successful sign-in: a new device cookie for this email, replacing the browser's last one. */
export async function rememberDevice(email: string, now = Date.now()): Promise<void> {
  const baseUrl = getEnv().PUBLIC_BASE_URL;
  (await cookies()).set(deviceCookieName(baseUrl), mintDeviceCookie(email, authSecret(), now), {
    ...cookieOptions(baseUrl),
    expires: new Date(now + DEVICE_COOKIE_LIFETIME_MS),
  });
}
