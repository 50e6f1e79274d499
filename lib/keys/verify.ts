import "server-only";
import { db } from "../db";
import { keyDigest } from "./digest";
import { parseApiKey, type KeyEnvironment } from "./format";
import { keyStatus } from "./status";

export type VerifiedKey = { id: string; publicId: string; userId: string; environment: KeyEnvironment };

export type Verification = { ok: true; key: VerifiedKey } | { ok: false; reason: "invalid" | "revoked" | "expired" };

/**
 * Checks a presented key: format and checksum first (no database for a
 * malformed key), then one lookup by digest. Reads the row on every call, so a
 * revocation counts from the very next request.
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
    },
  });
  if (!row) return { ok: false, reason: "invalid" };
  const status = keyStatus(row, now);
  if (status === "revoked" || status === "expired") return { ok: false, reason: status };
  return {
    ok: true,
    key: { id: row.id, publicId: row.publicId, userId: row.userId, environment: row.environment as KeyEnvironment },
  };
}
