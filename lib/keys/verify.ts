import "server-only";
import { db } from "../db";
import { keyDigest } from "./digest";
import { parseApiKey, type KeyEnvironment } from "./format";
import { uncachedKeyLookup, type KeyLookup } from "./key-cache";
import { databaseKeyStore } from "./key-store";
import type { KeyRestrictions } from "./restrictions";
import { keyStatus } from "./status";

export type VerifiedKey = {
  id: string;
  publicId: string;
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
 * every call (lib/keys/key-cache.ts), so a revocation or a change of
 * restrictions counts from the very next request.
 */
export async function verifyApiKey(
  secret: string,
  now = new Date(),
  keys: KeyLookup = uncachedKeyLookup(databaseKeyStore(db)),
): Promise<Verification> {
  if (!parseApiKey(secret)) return { ok: false, reason: "invalid" };
  const found = await keys.find(keyDigest(secret));
  if (!found) return { ok: false, reason: "invalid" };
  const { key, cached } = found;
  const { id, publicId, userId } = key;
  // Before its status: a decoy is answered as unknown whether or not it was revoked.
  if (key.decoy) return { ok: false, reason: "decoy", key: { id, publicId, userId } };
  const status = keyStatus(key, now);
  if (status === "revoked" || status === "expired") return { ok: false, reason: status, key: { id, publicId, userId } };
  // The cached entry itself: recordKeyUse moves its lastUsedAt, so this instance touches the row once a minute.
  return { ok: true, key, cached };
}

const TOUCH_INTERVAL_MS = 60_000;

/** Records use at most once a minute per key, so verifying does not write on every request. */
export async function recordKeyUse(key: VerifiedKey, ip: string, now = new Date()): Promise<void> {
  if (key.lastUsedAt && now.getTime() - key.lastUsedAt.getTime() < TOUCH_INTERVAL_MS) return;
  // Moved first, so concurrent requests on this instance do not all write.
  key.lastUsedAt = now;
  const staleBefore = new Date(now.getTime() - TOUCH_INTERVAL_MS);
  await db.apiKey.updateMany({
    where: { id: key.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: staleBefore } }] },
    data: { lastUsedAt: now, lastUsedIp: ip },
  });
}
