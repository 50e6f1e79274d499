import { keyStatus, type KeyStatus } from "./status";
import type { KeyEnvironment } from "./format";
import {
  fromStoredRestrictions,
  restrictionsSelect,
  type KeyRestrictions,
  type StoredRestrictions,
} from "./restrictions";

/** Another key, as a link: its public id and label. */
export interface KeyLink {
  id: string;
  label: string;
}

/** What the dashboard may see of a key: never its digest, never its secret. */
export interface KeyView {
  id: string;
  label: string;
  environment: KeyEnvironment;
  displayFragment: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  lastUsedIp: string | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  revokedReason: string | null;
  status: KeyStatus;
  /** The key that replaced this one (rotation or leak report). */
  successor: KeyLink | null;
  /** The key this one replaced. */
  predecessor: KeyLink | null;
  /** Its scopes, IP allowlist and rate limit. */
  restrictions: KeyRestrictions;
  /** The operator set its rate limit (it may be above the environment's default). */
  rateLimitByOperator: boolean;
  /** A decoy: it never works, and any use of it raises an alert (lib/keys/decoy.ts). */
  decoy: boolean;
  /** The member who made it (or whose key it replaces): who, besides admins, may change a production key. */
  makerId: string;
  /** The service account that owns it, if one does: no departure revokes it (lib/teams/service-accounts.ts). */
  serviceAccount: { id: string; name: string } | null;
}

const link = { select: { publicId: true, label: true } } as const;

export const keyViewSelect = {
  publicId: true,
  label: true,
  environment: true,
  displayFragment: true,
  createdAt: true,
  lastUsedAt: true,
  lastUsedIp: true,
  expiresAt: true,
  revokedAt: true,
  revokedReason: true,
  successorId: true,
  successor: link,
  predecessor: link,
  ...restrictionsSelect,
  rateLimitByOperator: true,
  decoy: true,
  userId: true,
  serviceAccount: { select: { id: true, name: true } },
} as const;

type SelectedLink = { publicId: string; label: string } | null;

/** A row read with keyViewSelect. */
type SelectedKey = Omit<
  KeyView,
  "id" | "environment" | "status" | "successor" | "predecessor" | "restrictions" | "makerId" | "serviceAccount"
> &
  StoredRestrictions & {
    publicId: string;
    userId: string;
    environment: string;
    successorId: string | null;
    successor: SelectedLink;
    predecessor: SelectedLink;
    serviceAccount: { id: string; name: string } | null;
  };

const toLink = (row: SelectedLink): KeyLink | null => (row ? { id: row.publicId, label: row.label } : null);

export function toKeyView(row: SelectedKey, now = new Date()): KeyView {
  return {
    id: row.publicId,
    label: row.label,
    environment: row.environment as KeyEnvironment,
    displayFragment: row.displayFragment,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    lastUsedIp: row.lastUsedIp,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    revokedReason: row.revokedReason,
    status: keyStatus(row, now),
    successor: toLink(row.successor),
    predecessor: toLink(row.predecessor),
    restrictions: fromStoredRestrictions(row),
    rateLimitByOperator: row.rateLimitByOperator,
    decoy: row.decoy,
    makerId: row.userId,
    serviceAccount: row.serviceAccount,
  };
}
