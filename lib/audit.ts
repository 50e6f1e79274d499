import "server-only";
import { headSeal, keyedHash, sealSigns } from "./audit-chain";
import { auditChainKey } from "./audit-key";
import type { Db } from "./db";
import { cleanUserAgent } from "./text";

/** Who did something, from where: recorded with every change. */
export interface Actor {
  userId: string;
  ip: string | null;
  userAgent: string | null;
  /**
   * Who acts: a signed-in person (the default), whose role in the key's team is
   * checked on every change; or the operator CLI or a leak report, acting on the
   * key's maker's behalf, which no role limits (lib/keys/lifecycle.ts).
   */
  kind?: "person" | "operator" | "report";
}

export type AuditAction =
  | "key.created"
  | "key.renamed"
  | "key.rotated"
  | "key.revoked"
  | "key.leaked"
  | "key.decoy_used"
  | "key.restricted"
  | "auth.sign_in"
  | "auth.sessions_ended"
  | "auth.account_created"
  | "auth.password_changed"
  | "auth.password_reset"
  | "auth.two_factor_enabled"
  | "auth.two_factor_disabled";

type Tx = Pick<Db, "auditEvent" | "user">;

/** For an entry that stands for repeats (a decoy's uses in an hour): when the first happened, and how many so far. */
export interface Repeats {
  at: Date;
  count: number;
}

/**
 * Writes an activity row, chained to the account's previous one with the
 * chain's key (lib/audit-chain.ts), and signs the new head; call it with the
 * transaction client of the change it records, so the row, its hash and the
 * new head commit with the change.
 *
 * It signs the new head only when the seal it finds signs the head it found
 * (an account's empty chain is signed when the account is made: sealNewChain). Otherwise someone moved the head without the key:
 * an instance of the previous release, or a person rewriting the chain and
 * clearing its seal. The row is still written and keyed, but the seal stays
 * where it was, so audit:verify names the rows added without the key instead
 * of this row's signature vouching for them (docs/operations.md).
 */
export async function recordAudit(
  tx: Tx,
  actor: Actor,
  action: AuditAction,
  keyId: string | null,
  details?: object,
  repeats?: Repeats,
) {
  // Taking the next number is a write to the account row: on PostgreSQL its
  // lock makes concurrent writers take turns (SQLite has one writer anyway),
  // and (userId, seq) is unique besides, so the chain cannot fork.
  const head = await tx.user.update({
    where: { id: actor.userId },
    data: { auditSeq: { increment: 1 } },
    select: { auditSeq: true, auditHash: true, auditSeal: true },
  });
  const row = {
    seq: head.auditSeq,
    action,
    keyId,
    ip: actor.ip,
    userAgent: cleanUserAgent(actor.userAgent),
    details: details ? JSON.stringify(details) : null,
    createdAt: repeats?.at ?? new Date(),
  };
  const key = auditChainKey();
  const hash = keyedHash(key, head.auditHash, actor.userId, row);
  const signed = sealSigns(key, actor.userId, { seq: row.seq - 1, hash: head.auditHash }, head.auditSeal);
  const auditSeal = signed ? headSeal(key, actor.userId, { seq: row.seq, hash }) : head.auditSeal;
  await tx.user.update({ where: { id: actor.userId }, data: { auditHash: hash, auditSeal } });
  // The count is outside the hash: it grows after the entry is chained (lib/keys/decoy.ts).
  return tx.auditEvent.create({ data: { userId: actor.userId, ...row, hash, count: repeats?.count ?? 1 } });
}

/**
 * Signs an account's empty chain, in the transaction that makes the account:
 * from then on a chain emptied by someone without the key (its rows deleted,
 * its head set back to nothing) no longer passes as an account that never did
 * anything, whether its seal is kept (it names a row that is gone) or cleared.
 */
export async function sealNewChain(tx: Tx, userId: string) {
  const auditSeal = headSeal(auditChainKey(), userId, { seq: 0, hash: "" });
  await tx.user.update({ where: { id: userId }, data: { auditSeal } });
}
