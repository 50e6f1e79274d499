import "server-only";
import { createHash, randomBytes } from "node:crypto";

// Single-use tokens sent to a person (reset links, sign-up confirmations, a
// pending second sign-in step): 32 bytes from the CSPRNG, base64url. Only the
// SHA-256 is stored, and a lookup is by that digest, so nothing secret is
// compared in code and a database dump holds no usable token.

export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

export function tokenDigest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A token of the right shape (43 base64url characters), before any lookup. */
export function isTokenShaped(value: unknown): value is string {
  return typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value);
}
