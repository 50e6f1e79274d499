import "server-only";
import { db } from "../db";
import { keyDigest } from "./digest";
import { parseApiKey, type KeyEnvironment } from "./format";
import { fromStoredRestrictions, restrictionsSelect, type KeyRestrictions } from "./restrictions";
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
  | { ok: true; key: VerifiedKey }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "revoked" | "expired"; key: FoundKey };

/**
 * Checks a presented key: format and checksum first (no database for a
 * malformed key), then one lookup by digest. Reads the row on every call, so a
 * revocation or a change of restrictions counts from the very next request.
 */
export async function verifyApiKey(secret: string, now = new Date()): Promise<Verification> {
  if (!parseApiKey(secret)) return { ok: false, reason: "invalid" };
  const row = await db.apiKey.findUnique({
    where: { digest: keyDigest(secret) },
    select: {
      id: true,
      publicId: true,
      userId: true,
      environment: true,
      revokedAt: true,
      expiresAt: true,
      successorId: true,
      lastUsedAt: true,
      ...restrictionsSelect,
      rateLimitByOperator: true,
    },
  });
  if (!row) return { ok: false, reason: "invalid" };
  const status = keyStatus(row, now);
  const { id, publicId, userId, lastUsedAt } = row;
  if (status === "revoked" || status === "expired") return { ok: false, reason: status, key: { id, publicId, userId } };
  return {
    ok: true,
    key: {
      id,
      publicId,
      userId,
      environment: row.environment as KeyEnvironment,
      lastUsedAt,
      restrictions: fromStoredRestrictions(row),
      rateLimitByOperator: row.rateLimitByOperator,
    },
  };
}

const TOUCH_INTERVAL_MS = 60_000;

/** Records use at most once a minute per key, so verifying does not write on every request. */
export async function recordKeyUse(key: VerifiedKey, ip: string, now = new Date()): Promise<void> {
  if (key.lastUsedAt && now.getTime() - key.lastUsedAt.getTime() < TOUCH_INTERVAL_MS) return;
  const staleBefore = new Date(now.getTime() - TOUCH_INTERVAL_MS);
  await db.apiKey.updateMany({
    where: { id: key.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: staleBefore } }] },
    data: { lastUsedAt: now, lastUsedIp: ip },
  });
}
