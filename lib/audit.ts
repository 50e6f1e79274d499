import "server-only";
import { headSeal, keyedHash, sealSigns, teamChainId, type ChainedRow } from "./audit-chain";
import { auditChainKey } from "./audit-key";
import type { Db } from "./db";
import { OPERATOR_USER_AGENT } from "./admin/operator-agent";
import { cleanUserAgent } from "./text";

/** Who did something, from where: recorded with every change. */
export interface Actor {
  userId: string;
  ip: string | null;
  userAgent: string | null;
  /**
   * Who acts: a signed-in person (the default), whose role in the key's team is
   * checked on every change; or the operator CLI or a leak report, acting on the
   * key's maker's behalf, which no role limits (lib/keys/lifecycle.ts); or
   * Keyport itself, recording what it saw (a decoy key's use).
   */
  kind?: "person" | "operator" | "report" | "keyport";
}

/** A person's own account events: in their account's chain, shown on their account page. */
export type AuditAction =
  | "auth.sign_in"
  | "auth.sessions_ended"
  | "auth.account_created"
  | "auth.password_changed"
  | "auth.password_reset"
  | "auth.two_factor_enabled"
  | "auth.two_factor_disabled"
  | "auth.recovery_codes_replaced";

/** A team's events: every change to its keys and its members, in the team's chain. */
export type TeamAuditAction =
  | "key.created"
  | "key.renamed"
  | "key.rotated"
  | "key.revoked"
  | "key.leaked"
  | "key.decoy_used"
  | "key.restricted"
  | "key.transferred"
  | "key.requested"
  | "key.request_approved"
  | "key.request_denied"
  | "team.chain_started"
  | "team.created"
  | "team.renamed"
  | "team.policy_changed"
  | "team.deleted"
  | "team.member_added"
  | "team.role_changed"
  | "team.member_removed"
  | "team.service_account_created"
  | "team.invitation_sent"
  | "team.invitation_resent"
  | "team.invitation_revoked";

type Tx = Pick<Db, "auditEvent" | "user" | "teamAuditEvent" | "team">;

/** For an entry that stands for repeats (a decoy's uses in an hour): when the first happened, and how many so far. */
export interface Repeats {
  at: Date;
  count: number;
}

/** A chain's head as its owner's row keeps it. */
interface Head {
  auditSeq: number;
  auditHash: string;
  auditSeal: string;
}

/** Where one chain's head lives: the account's row or the team's. */
interface ChainOwner {
  chainId: string;
  /** Takes the next number: a write to the owner's row, whose lock makes writers take turns. */
  next(): Promise<Head>;
  setHead(auditHash: string, auditSeal: string): Promise<unknown>;
}

/**
 * Chains one row after the owner's head with the chain's key
 * (lib/audit-chain.ts) and signs the new head; the caller stores the row.
 *
 * It signs the new head only when the seal it finds signs the head it found
 * (an empty chain is signed when its account or team is made). Otherwise
 * someone moved the head without the key: an instance of the previous
 * release, or a person rewriting the chain and clearing its seal. The row is
 * still written and keyed, but the seal stays where it was, so audit:verify
 * names the rows added without the key instead of this row's signature
 * vouching for them (docs/operations.md).
 */
async function chainRow(owner: ChainOwner, row: Omit<ChainedRow, "seq">) {
  // The seq is unique per chain besides, so the chain cannot fork.
  const head = await owner.next();
  const chained = { ...row, seq: head.auditSeq };
  const key = auditChainKey();
  const hash = keyedHash(key, head.auditHash, owner.chainId, chained);
  const signed = sealSigns(key, owner.chainId, { seq: chained.seq - 1, hash: head.auditHash }, head.auditSeal);
  await owner.setHead(hash, signed ? headSeal(key, owner.chainId, { seq: chained.seq, hash }) : head.auditSeal);
  return { ...chained, hash };
}

const headSelect = { auditSeq: true, auditHash: true, auditSeal: true } as const;

function accountChain(tx: Tx, userId: string): ChainOwner {
  return {
    chainId: userId,
    next: () => tx.user.update({ where: { id: userId }, data: { auditSeq: { increment: 1 } }, select: headSelect }),
    setHead: (auditHash, auditSeal) => tx.user.update({ where: { id: userId }, data: { auditHash, auditSeal } }),
  };
}

function teamChain(tx: Tx, teamId: string): ChainOwner {
  return {
    chainId: teamChainId(teamId),
    next: () => tx.team.update({ where: { id: teamId }, data: { auditSeq: { increment: 1 } }, select: headSelect }),
    setHead: (auditHash, auditSeal) => tx.team.update({ where: { id: teamId }, data: { auditHash, auditSeal } }),
  };
}

function content(actor: Actor, action: string, keyId: string | null, details?: object, repeats?: Repeats) {
  return {
    action,
    keyId,
    ip: actor.ip,
    userAgent: cleanUserAgent(actor.userAgent),
    details: details ? JSON.stringify(details) : null,
    createdAt: repeats?.at ?? new Date(),
  };
}

/**
 * Writes one of a person's own account events to their account's chain; call
 * it with the transaction client of the change it records, so the row, its
 * hash and the new head commit with the change.
 */
export async function recordAudit(tx: Tx, actor: Actor, action: AuditAction, keyId: null, details?: object) {
  const row = await chainRow(accountChain(tx, actor.userId), content(actor, action, keyId, details));
  return tx.auditEvent.create({ data: { userId: actor.userId, ...row } });
}

/**
 * Writes a team event to the team's chain, with who acted: a person, the
 * operator CLI or a report (each of the last two in the name of actor.userId).
 * Call it with the change's transaction client; key changes take the team's
 * row first (lib/keys/lifecycle.ts lockTeamKeys), which this writes too.
 */
export async function recordTeamAudit(
  tx: Tx,
  teamId: string,
  actor: Actor,
  action: TeamAuditAction,
  keyId: string | null,
  details?: object,
  repeats?: Repeats,
) {
  await startTeamChain(tx, teamId);
  const actorFields = { actorKind: actor.kind ?? "person", actorId: actor.userId };
  const row = await chainRow(teamChain(tx, teamId), {
    ...content(actor, action, keyId, details, repeats),
    ...actorFields,
  });
  // The count is outside the hash: it grows after the entry is chained (lib/keys/decoy.ts).
  return tx.teamAuditEvent.create({
    data: {
      teamId,
      ...row,
      actorKind: actorFields.actorKind,
      actorId: actorFields.actorId,
      count: repeats?.count ?? 1,
    },
  });
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

/** As sealNewChain, for a team's chain, in the transaction that makes the team. */
export async function sealNewTeamChain(tx: Pick<Db, "team">, teamId: string) {
  const auditSeal = headSeal(auditChainKey(), teamChainId(teamId), { seq: 0, hash: "" });
  await tx.team.update({ where: { id: teamId }, data: { auditSeal } });
}

/**
 * Starts the team's chain if it never was (empty, no seal): the team was made
 * before team chains, or by an instance of the previous release during a
 * rolling deploy. It signs the empty chain, and a personal team's gets its
 * first row, committing to its account chain's head (number and hash) as it
 * is now: the key events before it are in that chain. Run by the upgrade's
 * db:deploy for every team (lib/audit-chain-start.ts) and before a team's
 * first row, so the app never adds rows after a head with no seal, which
 * audit:verify reports as a seal removed. Returns whether it started it.
 */
export async function startTeamChain(tx: Tx, teamId: string): Promise<boolean> {
  const team = await tx.team.findUniqueOrThrow({
    where: { id: teamId },
    select: { auditSeq: true, auditHash: true, auditSeal: true, personalOfId: true },
  });
  if (team.auditSeq !== 0 || team.auditHash !== "" || team.auditSeal !== "") return false;
  if ((await tx.teamAuditEvent.count({ where: { teamId } })) > 0) return false;
  await sealNewTeamChain(tx, teamId);
  if (!team.personalOfId) return true;
  // The owner's row lock, after the team's (the order every change takes them): its chain's head cannot move meanwhile.
  const account = await tx.user.update({
    where: { id: team.personalOfId },
    data: { auditSeq: { increment: 0 } },
    select: { auditSeq: true, auditHash: true },
  });
  await recordTeamAudit(
    tx,
    teamId,
    { userId: team.personalOfId, ip: null, userAgent: OPERATOR_USER_AGENT, kind: "operator" },
    "team.chain_started",
    null,
    { account_chain: { seq: account.auditSeq, hash: account.auditHash } },
  );
  return true;
}
