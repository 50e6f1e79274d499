// The API key format, after GitHub's token design:
//   sk_<env>_ + 32 base62 characters of randomness (about 190 bits)
//            + the CRC32 of everything before it, as 6 base62 characters.
// The checksum lets a secret scanner tell a real key from random text, and
// lets the gate reject a mistyped key, without a database.
import { crc32 } from "node:zlib";
import { randomBase62, toBase62 } from "./base62";

export const KEY_ENVIRONMENTS = ["dev", "prod"] as const;
export type KeyEnvironment = (typeof KEY_ENVIRONMENTS)[number];

/** The one pattern every key matches (the docs show it). */
export const API_KEY_PATTERN = /^sk_(dev|prod)_[0-9A-Za-z]{38}$/;

const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;

export function checksumOf(body: string): string {
  return toBase62(crc32(body), CHECKSUM_LENGTH);
}

export function generateApiKey(environment: KeyEnvironment): string {
  const body = `sk_${environment}_${randomBase62(RANDOM_LENGTH)}`;
  return body + checksumOf(body);
}

/** Format and checksum; says nothing about whether the key exists. */
export function parseApiKey(candidate: string): { environment: KeyEnvironment } | null {
  const match = API_KEY_PATTERN.exec(candidate);
  if (!match) return null;
  const body = candidate.slice(0, -CHECKSUM_LENGTH);
  if (checksumOf(body) !== candidate.slice(-CHECKSUM_LENGTH)) return null;
  return { environment: match[1] as KeyEnvironment };
}

/** "sk_prod_Ab3x…9fQz": the prefix with the first and last four characters after it. */
export function displayFragment(key: string): string {
  const prefixEnd = key.indexOf("_", 3) + 1;
  return `${key.slice(0, prefixEnd)}${key.slice(prefixEnd, prefixEnd + 4)}…${key.slice(-4)}`;
}

/** The public key id: "key_" and 16 base62 characters. */
export function newKeyId(): string {
  return `key_${randomBase62(16)}`;
}

export const KEY_ID_PATTERN = /^key_[0-9A-Za-z]{16}$/;
/** A request for a production key (lib/keys/key-requests.ts): "req_" and 24 base62 characters (lib/ids.ts). */
export const KEY_REQUEST_ID_PATTERN = /^req_[0-9A-Za-z]{24}$/;
