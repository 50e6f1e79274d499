import "server-only";
import { recordTeamAudit, type Actor } from "../audit";
import { db } from "../db";
import { DomainError } from "../domain-error";
import { log } from "../log";
import { isTokenShaped, tokenDigest } from "../security/token";
import { memberById, teamNotFound } from "./membership";
import { refuseOverOwnedTeams } from "./members";
import type { Role } from "./roles";
import { lockTeam } from "./team-lock";

// An invitation's link, from the side of whoever holds it: what it stands
// for, what a dead one says, and its acceptance by a session of the invited
// address. Sending, re-sending, withdrawing and listing are the team's side
// (lib/teams/invitations.ts); a sign-up from the link is
// lib/teams/invitation-sign-up.ts.

/** What a link's holder is told of an invitation that no longer works, by why. */
export const INVITATION_WITHDRAWN = "This invitation was withdrawn by the team. Ask them for a new one if you need it.";
export const INVITATION_EXPIRED = "This invitation has expired. Ask the team for a new one.";
export const INVITATION_USED = "This invitation was already used.";
export const INVITATION_NOT_FOUND = "That invitation was not found.";

export const pendingWhere = (now: Date) => ({ acceptedAt: null, revokedAt: null, expiresAt: { gt: now } });

/** Where an invitation stands now. */
export function invitationState(
  invitation: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date },
  now: Date,
): "pending" | "withdrawn" | "expired" | "used" {
  if (invitation.acceptedAt) return "used";
  if (invitation.revokedAt) return "withdrawn";
  if (invitation.expiresAt <= now) return "expired";
  return "pending";
}

export type InvitationLookup =
  | {
      state: "pending";
      id: string;
      teamId: string;
      team: { name: string; slug: string };
      email: string;
      role: Role;
      expiresAt: Date;
    }
  /** A link that no longer works, with the address it was for: only that address's session is told why. */
  | { state: "withdrawn" | "expired" | "used"; email: string }
  | { state: "unknown" };

/** What a link's token stands for. Spends nothing. */
export async function findInvitation(token: unknown, now = new Date()): Promise<InvitationLookup> {
  if (!isTokenShaped(token)) return { state: "unknown" };
  const invitation = await db.invitation.findUnique({
    where: { tokenDigest: tokenDigest(token) },
    include: { team: { select: { name: true, slug: true } } },
  });
  if (!invitation) return { state: "unknown" };
  const state = invitationState(invitation, now);
  if (state !== "pending") return { state, email: invitation.email };
  return {
    state: "pending",
    id: invitation.id,
    teamId: invitation.teamId,
    team: invitation.team,
    email: invitation.email,
    role: invitation.role as Role,
    expiresAt: invitation.expiresAt,
  };
}

/** The message for a link that no longer works; "unknown" is a 404, said by the caller. */
export function deadInvitationMessage(state: "withdrawn" | "expired" | "used"): string {
  return state === "withdrawn" ? INVITATION_WITHDRAWN : state === "expired" ? INVITATION_EXPIRED : INVITATION_USED;
}

/**
 * Accepts the invitation for the signed-in person, whose address must be the
 * invitation's (any other is told "not found", as for a link that does not
 * exist, whether the invitation waits, was withdrawn, has expired or was
 * used). Of two acceptances at once, one spends it; the other finds the
 * person already in the team and answers the same. Returns the team's slug.
 */
export async function acceptInvitation(
  token: unknown,
  user: { id: string; email: string },
  ip: string | null,
  userAgent: string | null,
  now = new Date(),
): Promise<string> {
  const found = await findInvitation(token, now);
  if (found.state === "unknown" || found.email !== user.email.toLowerCase())
    throw new DomainError("not_found", INVITATION_NOT_FOUND);
  if (found.state !== "pending") {
    // Accepted a moment ago by this same person (another browser): they are in, which is what they asked.
    const slug = found.state === "used" ? await alreadyMemberByToken(token as string, user.id) : null;
    if (slug) return slug;
    throw new DomainError("invalid_request", deadInvitationMessage(found.state));
  }
  const actor: Actor = { userId: user.id, ip, userAgent, kind: "person" };
  const slug = await db.$transaction(async (tx) => {
    await lockTeam(tx, found.teamId);
    if ((await tx.membership.count({ where: { teamId: found.teamId } })) === 0) throw teamNotFound();
    const spent = await tx.invitation.updateMany({
      where: { id: found.id, ...pendingWhere(now) },
      data: { acceptedAt: now, acceptedBy: user.id },
    });
    if (spent.count !== 1) {
      if (await memberById(user.id, found.teamId, tx)) return found.team.slug;
      throw new DomainError("invalid_request", INVITATION_USED);
    }
    if (await memberById(user.id, found.teamId, tx)) return found.team.slug;
    if (found.role === "owner") await refuseOverOwnedTeams(tx, user.id, found.teamId, "invitation");
    await tx.membership.create({ data: { teamId: found.teamId, userId: user.id, role: found.role } });
    await recordTeamAudit(tx, found.teamId, actor, "team.member_added", null, {
      user_id: user.id,
      email: user.email,
      role: found.role,
      via: "invitation",
    });
    return found.team.slug;
  });
  log.info("team.invitation_accepted", { team_id: found.teamId, user_id: user.id, invitation_id: found.id });
  return slug;
}

/** The team's slug when this person is already in the team of the invitation with this token; else null. */
async function alreadyMemberByToken(token: string, userId: string): Promise<string | null> {
  const invitation = await db.invitation.findUnique({
    where: { tokenDigest: tokenDigest(token) },
    select: { teamId: true, acceptedBy: true, team: { select: { slug: true } } },
  });
  if (!invitation || invitation.acceptedBy !== userId) return null;
  return (await memberById(userId, invitation.teamId)) ? invitation.team.slug : null;
}
