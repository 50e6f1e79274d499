import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { getEnv } from "../env";

// Secrets the app must read back later (TOTP secrets, the links queued in the
// mail outbox) are sealed with AES-256-GCM under ENCRYPTION_KEY, never stored
// in the clear. The purpose is bound in as associated data, so a value sealed
// for one column cannot be opened as another. Format: v1.<iv>.<ciphertext>.<tag>
// (base64url). ENCRYPTION_KEY is apart from AUTH_SECRET on purpose: rotating
// the cookie secret must not lock everyone out of two-factor sign-in.

export type SealPurpose = "totp-secret" | "mail-link";

const VERSION = "v1";

function key(): Buffer {
  const encoded = getEnv().ENCRYPTION_KEY;
  if (!encoded) throw new Error("ENCRYPTION_KEY is not set");
  return Buffer.from(encoded, "base64");
}

export function seal(plaintext: string, purpose: SealPurpose): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  cipher.setAAD(Buffer.from(purpose, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const parts = [iv, body, cipher.getAuthTag()].map((part) => part.toString("base64url"));
  return [VERSION, ...parts].join(".");
}

/** The plaintext, or null when the value was not sealed by this key for this purpose (or was changed). */
export function open(sealed: string, purpose: SealPurpose): string | null {
  const [version, iv, body, tag] = sealed.split(".");
  if (version !== VERSION || !iv || body === undefined || !tag) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(purpose, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
