import "server-only";
import { recordTeamAudit, type Actor } from "../audit";
import { db, type Db } from "../db";
import { DomainError } from "../domain-error";
import { log } from "../log";
import { queueKeyChanged } from "../mail/account-notices";
import { queueKeyRequestDecided, queueKeyRequested } from "../mail/key-request-notices";
import { queueTeamKeyNotice } from "../mail/team-notices";
import {
  memberById,
  refuseUntilTwoFactor,
  requirePermission,
  teamNotFound,
  type TeamMember,
} from "../teams/membership";
import {
  defaultsRefusal,
  lifetimeRefusal,
  mustRequestProductionKey,
  productionKeyRefusal,
  type TeamPolicy,
} from "../teams/policies";
import { readTeamPolicy } from "../teams/policy-store";
import { can } from "../teams/roles";
import { authorise, lockTeam } from "../teams/team-lock";
import { newKeyRequestId } from "../ids";
import { keyRefused } from "./errors";
import { insertKey, refuseAboveKeyCap, refuseLimitAboveDefault, type IssuedKey } from "./lifecycle";
import {
  decideRefusal,
  decisionCutoff,
  decisionDeadline,
  keyRequestState,
  REVEAL_REFUSAL,
  revealDeadline,
} from "./key-request-state";
import {
  describeRestrictions,
  fromStoredRestrictions,
  toStoredRestrictions,
  type KeyRestrictions,
} from "./restrictions";
import { toKeyView } from "./views";

// Requests for production keys, under a team's "developers with approval"
// policy (lib/teams/policies.ts). A developer asks (label, access, expiry,
// reason); an admin or owner approves or denies; the requester alone reveals
// the key, once. The secret is generated at the reveal, in the transaction
// that makes the key, so no admin and no operator ever sees it, and nothing
// holds it before. Each step takes the team's lock, reads the people's roles
// and the policy under it (a policy changed while a request waits counts at
// approval and at reveal), and moves the request's status with a conditional
// update, so two approvers, or two reveals, cannot both succeed.

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/** The most requests one member may have waiting in a team: each one mails every admin. */
export const PENDING_REQUEST_CAP = 10;

export const KEY_REQUEST_NOT_FOUND = "That request was not found.";
const requestNotFound = () => new DomainError("not_found", KEY_REQUEST_NOT_FOUND);

export interface KeyRequestInput {
  label: string;
  expiresAt: Date | null;
  restrictions: KeyRestrictions;
  reason: string;
}

/**
 * Why the policy and the requester's place in the team, as they are now, no longer allow this key: at the request,
 * at the approval and at the reveal. Null when they do.
 */
function policyRefusal(
  policy: TeamPolicy,
  requester: TeamMember | null,
  expiresAt: Date | null,
  now: Date,
): { message: string; field?: string } | null {
  if (!requester || !can(requester.role, "keys.create_prod"))
    return { message: "The developer who asked is no longer in this team, or no longer makes production keys." };
  // Under "admins only" a developer's request is void; under "developers" it may still be approved and revealed.
  if (policy.productionKeys === "admins" && !can(requester.role, "keys.manage_any_prod"))
    return { message: productionKeyRefusal("admins"), field: "environment" };
  if (expiresAt && expiresAt <= now)
    return { message: "The key's expiry date has passed. Ask again.", field: "expiry" };
  const lifetime = lifetimeRefusal(policy, "prod", expiresAt, now);
  return lifetime ? { message: lifetime, field: "expiry" } : null;
}

const teamFacts = (member: TeamMember) => ({ id: member.team.id, name: member.team.name, slug: member.team.slug });

/** A developer asks for a production key. Only where the team's rule asks them to; admins create keys directly. */
export async function requestProductionKey(
  actor: Actor,
  teamId: string,
  input: KeyRequestInput,
  now = new Date(),
): Promise<{ id: string }> {
  refuseLimitAboveDefault(input.restrictions, "prod", {});
  const created = await db.$transaction(async (tx: Tx) => {
    await lockTeam(tx, teamId);
    const member = await authorise(tx, actor, teamId, (m) => requirePermission(m, "keys.create_prod"));
    // Requests are people's: the operator makes keys directly (key:create).
    if (!member) throw keyRefused("Only a member of the team asks for a key.");
    const policy = await readTeamPolicy(teamId, tx);
    if (!mustRequestProductionKey(policy.productionKeys, member.role)) {
      throw keyRefused(
        policy.productionKeys === "admins" && !can(member.role, "keys.manage_any_prod")
          ? productionKeyRefusal("admins")
          : "You create production keys directly in this team: no request is needed.",
        "environment",
      );
    }
    const refusal =
      policyRefusal(policy, member, input.expiresAt, now) ??
      defaultsRefusal(policy.productionDefaults, input.restrictions);
    if (refusal) throw keyRefused(refusal.message, refusal.field);
    const waiting = await tx.keyRequest.count({
      where: { teamId, userId: actor.userId, status: "pending", createdAt: { gt: decisionCutoff(now) } },
    });
    if (waiting >= PENDING_REQUEST_CAP) {
      throw keyRefused(
        `You have ${PENDING_REQUEST_CAP} requests waiting for a decision in this team, the most allowed. Wait for an admin, or ask one.`,
      );
    }
    const row = await tx.keyRequest.create({
      data: {
        publicId: newKeyRequestId(),
        teamId,
        userId: actor.userId,
        label: input.label,
        expiresAt: input.expiresAt,
        ...toStoredRestrictions(input.restrictions),
        reason: input.reason,
        createdAt: now,
      },
      select: { publicId: true, label: true, userId: true },
    });
    await recordTeamAudit(tx, teamId, actor, "key.requested", null, {
      request: row.publicId,
      environment: "prod",
      label: input.label,
      expires_at: input.expiresAt?.toISOString() ?? null,
      ...describeRestrictions(input.restrictions),
    });
    await queueKeyRequested(tx, { team: teamFacts(member), request: row }, input.reason, decisionDeadline(now), now);
    return { id: row.publicId };
  });
  log.info("key.requested", { user_id: actor.userId, team_id: teamId, request_id: created.id });
  return created;
}

/** The request, read after the team's lock; a request of another team is "not found". */
async function lockedRequest(tx: Tx, teamId: string, publicId: string) {
  const row = await tx.keyRequest.findFirst({ where: { publicId, teamId } });
  if (!row) throw requestNotFound();
  return row;
}

/**
 * An admin or owner approves or denies a pending request (a denial says why). Approval re-reads the policy and the
 * requester's role: a request the team's rules no longer allow cannot be approved, only denied. The requester cannot
 * decide their own request, whatever their role has become.
 */
export async function decideKeyRequest(
  actor: Actor,
  teamId: string,
  publicId: string,
  decision: { approve: boolean; comment: string | null },
  now = new Date(),
): Promise<{ id: string; approved: boolean }> {
  const result = await db.$transaction(async (tx: Tx) => {
    await lockTeam(tx, teamId);
    // Under the lock: an approver removed or demoted a moment ago is refused.
    const approver = await authorise(tx, actor, teamId, (m) => requirePermission(m, "keys.approve_requests"));
    if (!approver) throw keyRefused("Requests are decided by the team's admins and owners, in the dashboard.");
    const row = await lockedRequest(tx, teamId, publicId);
    if (keyRequestState(row, now) !== "pending") throw keyRefused(decideRefusal(row.status));
    if (row.userId === actor.userId) throw keyRefused("Another admin or owner of the team decides your own request.");
    if (decision.approve) {
      const requester = await memberById(row.userId, teamId, tx);
      const refusal = policyRefusal(await readTeamPolicy(teamId, tx), requester, row.expiresAt, now);
      if (refusal) throw keyRefused(`${refusal.message} Deny the request instead.`);
    }
    // Only from pending: of two admins deciding at once, the second finds it decided.
    const moved = await tx.keyRequest.updateMany({
      where: { id: row.id, status: "pending" },
      data: {
        status: decision.approve ? "approved" : "denied",
        decidedById: actor.userId,
        decidedAt: now,
        comment: decision.comment,
      },
    });
    if (moved.count !== 1) throw keyRefused(decideRefusal("approved"));
    // The comment is for the requester (their page, their mail), not for every member who reads the activity.
    await recordTeamAudit(tx, teamId, actor, decision.approve ? "key.request_approved" : "key.request_denied", null, {
      request: row.publicId,
      label: row.label,
    });
    await queueKeyRequestDecided(
      tx,
      { team: teamFacts(approver), request: row },
      {
        approved: decision.approve,
        byUserId: actor.userId,
        comment: decision.comment,
        revealBy: decision.approve ? revealDeadline(now) : null,
      },
      now,
    );
    return { id: row.publicId, approved: decision.approve };
  });
  log.info(result.approved ? "key.request_approved" : "key.request_denied", {
    user_id: actor.userId,
    team_id: teamId,
    request_id: result.id,
  });
  return result;
}

/**
 * The requester, and only the requester, reveals an approved request's key: generated now, shown once, stored as
 * its digest. The policy and their role are checked again; a second reveal finds the request revealed.
 */
export async function revealRequestedKey(
  actor: Actor,
  teamId: string,
  publicId: string,
  now = new Date(),
): Promise<IssuedKey & { requestId: string }> {
  const issued = await db.$transaction(async (tx: Tx) => {
    await lockTeam(tx, teamId);
    const member = await memberById(actor.userId, teamId, tx);
    if (!member || (actor.kind ?? "person") !== "person") throw teamNotFound();
    refuseUntilTwoFactor(member);
    const row = await lockedRequest(tx, teamId, publicId);
    if (row.userId !== actor.userId)
      throw keyRefused("Only the developer who asked for this key can reveal it: its secret is shown to them alone.");
    const state = keyRequestState(row, now);
    if (state !== "approved") throw keyRefused(REVEAL_REFUSAL[state]);
    const refusal = policyRefusal(await readTeamPolicy(teamId, tx), member, row.expiresAt, now);
    if (refusal) throw keyRefused(refusal.message);
    await refuseAboveKeyCap(tx, member.team, now);
    // Only from approved: of two reveals at once, the second finds it revealed (one secret, shown once).
    const moved = await tx.keyRequest.updateMany({
      where: { id: row.id, status: "approved", revealedAt: null },
      data: { status: "revealed", revealedAt: now },
    });
    if (moved.count !== 1) throw keyRefused(REVEAL_REFUSAL.revealed);
    const restrictions = fromStoredRestrictions(row);
    const { row: key, secret } = await insertKey(
      tx,
      { teamId, userId: actor.userId, serviceAccountId: null },
      {
        label: row.label,
        environment: "prod",
        expiresAt: row.expiresAt,
        restrictions,
        rateLimitByOperator: false,
      },
      now,
    );
    await tx.keyRequest.update({ where: { id: row.id }, data: { keyPublicId: key.publicId } });
    await recordTeamAudit(tx, teamId, actor, "key.created", key.publicId, {
      environment: "prod",
      label: row.label,
      request: row.publicId,
      approved_by: row.decidedById,
      ...describeRestrictions(restrictions),
    });
    await queueKeyChanged(tx, actor.userId, key, "created", now);
    await queueTeamKeyNotice(tx, member.team, key, "created", actor.userId, now);
    return { key: toKeyView(key, now), secret, requestId: row.publicId };
  });
  log.info("key.created", {
    user_id: actor.userId,
    key_id: issued.key.id,
    environment: "prod",
    request_id: issued.requestId,
  });
  return issued;
}

/** The comment a request ended with when its requester left the team. */
export const REQUESTER_LEFT = "The developer who asked left the team.";

/**
 * A departure ends the person's requests that wait, for a decision or to be revealed: what a member held ends with
 * the membership, and joining again does not bring an old approval back (the attack review of approvals). Run in
 * the removal's transaction.
 */
export async function endRequestsOf(tx: Tx, teamId: string, userId: string, now: Date): Promise<number> {
  const ended = await tx.keyRequest.updateMany({
    where: { teamId, userId, status: { in: ["pending", "approved"] } },
    data: { status: "denied", decidedAt: now, comment: REQUESTER_LEFT },
  });
  return ended.count;
}
