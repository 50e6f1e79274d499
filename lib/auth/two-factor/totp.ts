import "server-only";
import { Secret, TOTP } from "otpauth";

// TOTP as RFC 6238 and every authenticator app speak it: SHA-1, 6 digits,
// 30-second steps, 160-bit secrets. A code is accepted one step either side
// of now (clock drift), and only for a step later than the last one accepted.

const ISSUER = "Keyport";
const PERIOD = 30;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secretBase32: string, label = "") {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function totpUri(secretBase32: string, email: string): string {
  return totp(secretBase32, email).toString();
}

/** The time step a code belongs to, or null when it is no code for this secret around now. */
export function matchingStep(secretBase32: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const generator = totp(secretBase32);
  const delta = generator.validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : generator.counter({ timestamp: now }) + delta;
}

/** A current code, for tests and for nothing else. */
export function codeFor(secretBase32: string, now = Date.now()): string {
  return totp(secretBase32).generate({ timestamp: now });
}
