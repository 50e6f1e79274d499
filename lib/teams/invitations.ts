import "server-only";
import { recordTeamAudit, type Actor } from "../audit";
import { emailSchema } from "../auth/credentials.schema";
import { db, type Db } from "../db";
import { DomainError } from "../domain-error";
import { getEnv } from "../env";
import { log } from "../log";
import { queueMail } from "../mail/outbox";
import { holdsApiKey } from "../keys/key-in-text";
import { runtime } from "../runtime/runtime";
import { newToken, tokenDigest } from "../security/token";
import { memberById, requirePermission, teamNotFound } from "./membership";
import { isRole, ROLES, type Role } from "./roles";
import { pendingWhere } from "./invitation-links";
import { lockTeam } from "./team-lock";

// Invitations by mail: an admin (an owner, for the owner role) invites an
// address with a role; the mail's link works for 7 days, once, and only for a
// session of that address (or a sign-up from the link, which proves the
// address the way a sign-up's own link does). The answer to an invitation is
// the same whether the address has an account: before the link is opened,
// the only question asked of the address is whether it is already in the
// team (one query either way), so neither the answer nor its timing can tell.

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** Pending invitations a team may have at once. */
export const PENDING_INVITATIONS_MAX = 50;
/** Invitation mails (first sends and re-sends) a team may send in an hour. */
export const INVITATIONS_PER_HOUR = 20;
const HOUR = 60 * 60 * 1000;

const refused = (message: string, field?: string) =>
  new DomainError("invalid_request", message, field ? { field } : {});

/** The person's right to invite (or re-send, or withdraw) for this role; the operator passes. */
async function authorise(tx: Tx, actor: Actor, teamId: string, role: Role) {
  if ((actor.kind ?? "person") !== "person") return;
  const member = await memberById(actor.userId, teamId, tx);
  if (!member) throw teamNotFound();
  requirePermission(member, role === "owner" ? "members.manage_owners" : "members.manage");
}

/** Refuses an invitation mail over the team's hourly number: its first sends and re-sends count alike. */
async function refuseOverHourly(tx: Tx, teamId: string, now: Date, field: string) {
  const since = new Date(now.getTime() - HOUR);
  const sent = await tx.mailMessage.findMany({
    where: { kind: "team_invitation", subject: { startsWith: `${teamId}:` }, createdAt: { gt: since } },
    select: { createdAt: true },
    orderBy: { createdAt: "asc" },
  });
  if (sent.length >= INVITATIONS_PER_HOUR) {
    const at = new Date(sent[0]!.createdAt.getTime() + HOUR).toISOString().slice(11, 16);
    throw refused(
      `This team sent ${INVITATIONS_PER_HOUR} invitations in the last hour, the most allowed. Try again at ${at} UTC.`,
      field,
    );
  }
}

/**
 * What an invitation to `email` needs to wait: nobody in the team has that address, no other invitation to it waits,
 * and the team has fewer than PENDING_INVITATIONS_MAX waiting. `field` says which form asks: a new invitation's
 * (email) or the list's "send again" (invitation).
 */
async function refuseUnlessMayWait(tx: Tx, teamId: string, email: string, now: Date, field: "email" | "invitation") {
  const again = field === "invitation";
  // One query whether or not the address has an account: a member is someone the inviter can see anyway.
  if (await tx.membership.findFirst({ where: { teamId, user: { email } }, select: { userId: true } }))
    throw refused(`That person is already a member of this team${again ? ": withdraw the invitation" : ""}.`, field);
  if (await tx.invitation.findFirst({ where: { teamId, email, ...pendingWhere(now) } }))
    throw refused(
      again
        ? "Another invitation to that address is waiting: re-send that one."
        : "An invitation to that address is waiting: re-send it from the list below.",
      field,
    );
  if ((await tx.invitation.count({ where: { teamId, ...pendingWhere(now) } })) >= PENDING_INVITATIONS_MAX)
    throw refused(
      `This team has ${PENDING_INVITATIONS_MAX} invitations waiting, the most allowed: withdraw some first.`,
      field,
    );
}

/** Queues the invitation's mail (with its link, sealed in the row) in the change's transaction. */
async function queueInvitationMail(
  tx: Tx,
  invitation: { id: string; teamId: string; email: string; role: string; expiresAt: Date },
  token: string,
  inviter: string | null,
  now: Date,
) {
  const team = await tx.team.findUniqueOrThrow({ where: { id: invitation.teamId }, select: { name: true } });
  await queueMail(
    tx,
    {
      kind: "team_invitation",
      subject: `${invitation.teamId}:${invitation.id}`,
      period: String(now.getTime()),
      to: invitation.email,
      data: {
        team: team.name,
        role: invitation.role,
        by: inviter,
        expires: invitation.expiresAt.toISOString().slice(0, 16).replace("T", " "),
      },
      link: `${getEnv().PUBLIC_BASE_URL}/invitations/${token}`,
    },
    now,
  );
}

async function inviterEmail(tx: Tx, actor: Actor): Promise<string | null> {
  if ((actor.kind ?? "person") !== "person") return null;
  return (await tx.user.findUnique({ where: { id: actor.userId }, select: { email: true } }))?.email ?? null;
}

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  sentAt: Date;
  expiresAt: Date;
}

/**
 * Invites an address to the team with a role, and mails it the link. A bad
 * address or role, someone already in the team, an invitation to the address
 * still waiting, or a team over its limits is a field error, and nothing is
 * sent. The answer is the same for an address with an account and without.
 */
export async function inviteMember(
  actor: Actor,
  teamId: string,
  input: { email: string; role: string },
  now = new Date(),
): Promise<InvitationView> {
  // Read before the address is lower-cased, which would hide a key from the check but not from anyone who reads it
  // (attack review: an address holding a key was stored, logged and mailed).
  if (holdsApiKey(input.email)) throw refused("An email address cannot contain an API key.", "email");
  const email = emailSchema.safeParse(input.email);
  if (!email.success) throw refused(email.error.issues[0]!.message, "email");
  if (!isRole(input.role)) throw refused(`Choose one of: ${ROLES.join(", ")}.`, "role");
  const role = input.role;
  const made = await db.$transaction(async (tx) => {
    await lockTeam(tx, teamId);
    await authorise(tx, actor, teamId, role);
    const team = await tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { personalOfId: true } });
    if (team.personalOfId)
      throw refused("A personal team has its owner alone: make a team to work with others.", "email");
    if ((await tx.membership.count({ where: { teamId } })) === 0) throw teamNotFound();
    await refuseUnlessMayWait(tx, teamId, email.data, now, "email");
    await refuseOverHourly(tx, teamId, now, "email");
    const token = newToken();
    const invitation = await tx.invitation.create({
      data: {
        teamId,
        email: email.data,
        role,
        tokenDigest: tokenDigest(token),
        invitedById: (actor.kind ?? "person") === "person" ? actor.userId : null,
        sentAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS),
      },
    });
    await queueInvitationMail(tx, invitation, token, await inviterEmail(tx, actor), now);
    await recordTeamAudit(tx, teamId, actor, "team.invitation_sent", null, { email: email.data, role });
    return invitation;
  });
  runtime().mailJob.wake();
  log.info("team.invitation_sent", { team_id: teamId, user_id: actor.userId, invitation_id: made.id });
  return { id: made.id, email: made.email, role, sentAt: made.sentAt, expiresAt: made.expiresAt };
}

/** The team's invitation with this id, still waiting, read after the lock; anything else is a field error. */
async function pendingInvitation(tx: Tx, teamId: string, id: string) {
  const invitation = await tx.invitation.findFirst({ where: { id, teamId } });
  if (!invitation) throw refused("That invitation was not found.", "invitation");
  if (invitation.acceptedAt) throw refused("That invitation was already accepted.", "invitation");
  if (invitation.revokedAt) throw refused("That invitation was already withdrawn.", "invitation");
  return invitation;
}

/**
 * Sends the invitation again with a new link (the old one stops working) and
 * 7 more days; an expired one too, within the waiting rules. It counts toward
 * the team's hourly number.
 */
export async function resendInvitation(actor: Actor, teamId: string, id: string, now = new Date()) {
  await db.$transaction(async (tx) => {
    await lockTeam(tx, teamId);
    const invitation = await pendingInvitation(tx, teamId, id);
    await authorise(tx, actor, teamId, invitation.role as Role);
    // An expired invitation sent again waits once more, so it meets the waiting rules a new one meets: the team's
    // limit, and one waiting invitation per address (a new one may have been sent while this one was expired).
    if (invitation.expiresAt <= now) {
      await refuseUnlessMayWait(tx, teamId, invitation.email, now, "invitation");
    }
    await refuseOverHourly(tx, teamId, now, "invitation");
    const token = newToken();
    const updated = await tx.invitation.update({
      where: { id },
      data: {
        tokenDigest: tokenDigest(token),
        sentAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS),
      },
    });
    await queueInvitationMail(tx, updated, token, await inviterEmail(tx, actor), now);
    await recordTeamAudit(tx, teamId, actor, "team.invitation_resent", null, {
      email: invitation.email,
      role: invitation.role,
    });
  });
  runtime().mailJob.wake();
}

/** Withdraws a waiting invitation: its link then says so. */
export async function revokeInvitation(actor: Actor, teamId: string, id: string, now = new Date()) {
  await db.$transaction(async (tx) => {
    await lockTeam(tx, teamId);
    const invitation = await pendingInvitation(tx, teamId, id);
    await authorise(tx, actor, teamId, invitation.role as Role);
    await tx.invitation.update({ where: { id }, data: { revokedAt: now } });
    await recordTeamAudit(tx, teamId, actor, "team.invitation_revoked", null, {
      email: invitation.email,
      role: invitation.role,
    });
  });
}

/** The team's invitations not yet accepted or withdrawn (expired ones too, to re-send), newest first. */
export async function listInvitations(teamId: string, now = new Date()) {
  const rows = await db.invitation.findMany({
    where: { teamId, acceptedAt: null, revokedAt: null },
    orderBy: { sentAt: "desc" },
  });
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role as Role,
    sentAt: row.sentAt,
    expiresAt: row.expiresAt,
    expired: row.expiresAt <= now,
  }));
}
