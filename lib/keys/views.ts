import { keyStatus, type KeyStatus } from "./status";
import type { KeyEnvironment } from "./format";

/** What the dashboard may see of a key: never its digest, never its secret. */
export interface KeyView {
  id: string;
  label: string;
  environment: KeyEnvironment;
  displayFragment: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  revokedReason: string | null;
  status: KeyStatus;
  successorId: string | null;
}

export const keyViewSelect = {
  publicId: true,
  label: true,
  environment: true,
  displayFragment: true,
  createdAt: true,
  lastUsedAt: true,
  expiresAt: true,
  revokedAt: true,
  revokedReason: true,
  successorId: true,
  successor: { select: { publicId: true } },
} as const;

/** A row read with keyViewSelect. */
type SelectedKey = Omit<KeyView, "id" | "environment" | "status" | "successorId"> & {
  publicId: string;
  environment: string;
  successorId: string | null;
  successor: { publicId: string } | null;
};

export function toKeyView(row: SelectedKey, now = new Date()): KeyView {
  return {
    id: row.publicId,
    label: row.label,
    environment: row.environment as KeyEnvironment,
    displayFragment: row.displayFragment,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    revokedReason: row.revokedReason,
    status: keyStatus(row, now),
    successorId: row.successor?.publicId ?? null,
  };
}
