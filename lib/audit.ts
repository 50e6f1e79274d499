import "server-only";
import type { Db } from "./db";

/** Who did something, from where: recorded with every change. */
export interface Actor {
  userId: string;
  ip: string | null;
  userAgent: string | null;
}

export type AuditAction =
  | "key.created"
  | "key.renamed"
  | "key.rotated"
  | "key.revoked"
  | "key.leaked"
  | "key.restricted"
  | "auth.sign_in"
  | "auth.sessions_ended"
  | "auth.account_created";

type Tx = Pick<Db, "auditEvent">;

/** Writes an activity row; call it with the transaction client of the change it records. */
export function recordAudit(tx: Tx, actor: Actor, action: AuditAction, keyId: string | null, details?: object) {
  return tx.auditEvent.create({
    data: {
      userId: actor.userId,
      action,
      keyId,
      ip: actor.ip,
      userAgent: actor.userAgent?.slice(0, 512) ?? null,
      details: details ? JSON.stringify(details) : null,
    },
  });
}
