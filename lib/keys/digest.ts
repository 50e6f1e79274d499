import { createHash } from "node:crypto";

/**
 * The only form in which a key is stored: SHA-256 of the whole key, hex. A key
 * carries 190 random bits, so a fast hash is enough (no salt or slow hash is
 * needed against guessing), and it lets the gate find a key by an index lookup.
 */
export function keyDigest(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}
