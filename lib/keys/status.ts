export type KeyStatus = "active" | "expiring" | "expired" | "revoked";

export const KEY_STATUSES: readonly KeyStatus[] = ["active", "expiring", "expired", "revoked"];

interface KeyDates {
  revokedAt: Date | null;
  expiresAt: Date | null;
  successorId: string | null;
}

/**
 * active: works, no successor; expiring: rotated, works until its grace period
 * ends; expired: past its expiry (including after a rotation's grace);
 * revoked: switched off for good.
 */
export function keyStatus(key: KeyDates, now = new Date()): KeyStatus {
  if (key.revokedAt) return "revoked";
  if (key.expiresAt && key.expiresAt <= now) return "expired";
  if (key.successorId) return "expiring";
  return "active";
}

/** Prisma filters for each status, the same rules as keyStatus. */
export function statusWhere(status: KeyStatus, now = new Date()) {
  const notExpired = { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
  switch (status) {
    case "revoked":
      return { revokedAt: { not: null } };
    case "expired":
      return { revokedAt: null, expiresAt: { lte: now } };
    case "expiring":
      return { revokedAt: null, successorId: { not: null }, ...notExpired };
    case "active":
      return { revokedAt: null, successorId: null, ...notExpired };
  }
}
