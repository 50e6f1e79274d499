export type KeyStatus = "active" | "expiring" | "expired" | "revoked";

export const KEY_STATUSES: readonly KeyStatus[] = ["active", "expiring", "expired", "revoked"];

/** How each status reads in the dashboard: list, filter, key page. */
export const KEY_STATUS_LABELS: Record<KeyStatus, string> = {
  active: "Active",
  expiring: "Expiring after rotation",
  expired: "Expired",
  revoked: "Revoked",
};

/** Whether a key with this status still authenticates requests. */
export const isUsable = (status: KeyStatus) => status === "active" || status === "expiring";

export type KeyActionKind = "rotate" | "leak" | "revoke";

/** What can be done to a key in this status: the list's menu and the key page offer exactly these. */
export function availableActions(status: KeyStatus, { decoy = false } = {}): KeyActionKind[] {
  const actions: KeyActionKind[] = [];
  // A decoy is only ever revoked: rotating or replacing it would make a real key.
  if (decoy) return isUsable(status) ? ["revoke"] : [];
  if (status === "active") actions.push("rotate");
  if (isUsable(status)) actions.push("leak", "revoke");
  return actions;
}

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

/** Prisma filters for each status, the same rules as keyStatus; "usable" is active or expiring. */
export function statusWhere(status: KeyStatus | "usable", now = new Date()) {
  const notExpired = { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
  switch (status) {
    case "usable":
      return { revokedAt: null, ...notExpired };
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
