import "server-only";
import { db } from "../db";
import { keyDigest } from "./digest";
import { parseApiKey, type KeyEnvironment } from "./format";
import { andThen, type MaybePromise } from "../maybe-promise";
import { uncachedKeyLookup, type FoundByDigest, type KeyLookup } from "./key-cache";
import { databaseKeyStore } from "./key-store";
import type { KeyRestrictions } from "./restrictions";
import { keyStatus } from "./status";

export type VerifiedKey = {
  id: string;
  publicId: string;
  teamId: string;
  userId: string;
  environment: KeyEnvironment;
  lastUsedAt: Date | null;
  restrictions: KeyRestrictions;
  /** The operator set the rate limit: it holds even above the environment's default. */
  rateLimitByOperator: boolean;
};

/** A key the lookup found: enough to record its use (issue: usage), never its secret. */
export type FoundKey = Pick<VerifiedKey, "id" | "publicId" | "userId">;

export type Verification =
  | { ok: true; key: VerifiedKey; /** This instance's cache answered (lib/keys/key-cache.ts). */ cached: boolean }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "revoked" | "expired" | "decoy"; key: FoundKey };

/**
 * Checks a presented key: format and checksum first (no database or cache for
 * a malformed key), then the lookup by digest, which reads the database on
 * every call unless the database shows no commit at all since the key was
 * last checked (lib/keys/key-cache.ts), so a revocation or a change of
 * restrictions counts from the very next request. The answer is at hand when
 * the cache could tell without the database, else a promise.
 */
export function verifyApiKey(
  secret: string,
  now = new Date(),
  keys: KeyLookup = uncachedKeyLookup(databaseKeyStore(db)),
): MaybePromise<Verification> {
  if (!parseApiKey(secret)) return { ok: false, reason: "invalid" };
  return andThen(keys.find(keyDigest(secret)), (found) => verification(found, now));
}

function verification(found: FoundByDigest | null, now: Date): Verification {
  if (!found) return { ok: false, reason: "invalid" };
  const { key, cached } = found;
  const { id, publicId, userId } = key;
  // Before its status: a decoy is answered as unknown whether or not it was revoked.
  if (key.decoy) return { ok: false, reason: "decoy", key: { id, publicId, userId } };
  const status = keyStatus(key, now);
  if (status === "revoked" || status === "expired") return { ok: false, reason: status, key: { id, publicId, userId } };
  // The cached entry itself: claimKeyUse moves its lastUsedAt, so this instance touches the row once a minute.
  return { ok: true, key, cached };
}

const TOUCH_INTERVAL_MS = 60_000;

/**
 * Whether this request should move the key's last use (ApiKey.lastUsedAt and
 * lastUsedIp): at most once a minute per key and instance. Nothing is written
 * here: the request's usage event carries the mark and the usage flush writes
 * every marked key of its batch in one statement (lib/usage/usage-sink.ts),
 * so a key's first use costs the request no write of its own.
 */
export function claimKeyUse(key: VerifiedKey, now = new Date()): boolean {
  if (key.lastUsedAt && now.getTime() - key.lastUsedAt.getTime() < TOUCH_INTERVAL_MS) return false;
  // Moved in the cached entry, so the requests that follow on this instance do not claim it too.
  key.lastUsedAt = now;
  return true;
}

/** How old a stored last use must be before a flush moves it: other instances may have moved it meanwhile. */
export const staleUseBefore = (at: Date) => new Date(at.getTime() - TOUCH_INTERVAL_MS);
