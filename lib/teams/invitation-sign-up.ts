import "server-only";
import { recordTeamAudit } from "../audit";
import { insertAccount } from "../auth/accounts";
import { db } from "../db";
import { DomainError } from "../domain-error";
import { log } from "../log";
import { tokenDigest } from "../security/token";
import {
  deadInvitationMessage,
  findInvitation,
  INVITATION_NOT_FOUND,
  invitationState,
  pendingWhere,
} from "./invitation-links";
import { teamNotFound } from "./membership";
import { lockTeam } from "./team-lock";

// A sign-up from an invitation's link makes the invited address's account and
// its membership in one transaction, under the team's lock, with the
// invitation spent in it. Withdrawing, re-sending and accepting take the same
// lock, so an invitation withdrawn between the page's opening and the form's
// sending makes nothing: no account is left behind without the team it was
// made to join, and the person is told why, as the link would tell them now.
// Of two sign-ups from one link at once, one makes the account; the other
// finds the invitation spent and makes nothing (an account made meanwhile by
// an ordinary sign-up is refused as "has an account").

/** The link's holder owns the address, so they may be told it has an account. */
export const ADDRESS_HAS_ACCOUNT =
  "An account already uses this address: sign in with it, then open the invitation's link again.";

const hasAccount = () => new DomainError("invalid_request", ADDRESS_HAS_ACCOUNT);

/**
 * Makes the invited address's account with this password hash, joins it to the team with the invitation's role and
 * spends the invitation, all or nothing. Answers the account and the team's slug.
 */
export async function joinWithNewAccount(
  token: string,
  passwordHash: string,
  ip: string | null,
  userAgent: string | null,
  now = new Date(),
): Promise<{ user: { id: string; email: string }; slug: string }> {
  const found = await findInvitation(token, now);
  if (found.state === "unknown") throw new DomainError("not_found", INVITATION_NOT_FOUND);
  if (found.state !== "pending") throw new DomainError("invalid_request", deadInvitationMessage(found.state));
  try {
    const user = await db.$transaction(async (tx) => {
      await lockTeam(tx, found.teamId);
      if ((await tx.membership.count({ where: { teamId: found.teamId } })) === 0) throw teamNotFound();
      // Read again under the lock: a withdrawal, a re-send (a new token) or an acceptance since the page was opened
      // counts.
      const invitation = await tx.invitation.findUnique({ where: { tokenDigest: tokenDigest(token) } });
      if (!invitation) throw new DomainError("not_found", INVITATION_NOT_FOUND);
      const state = invitationState(invitation, now);
      if (state !== "pending") throw new DomainError("invalid_request", deadInvitationMessage(state));
      if (await tx.user.findUnique({ where: { email: found.email }, select: { id: true } })) throw hasAccount();
      const made = await insertAccount(tx, { email: found.email, passwordHash });
      const spent = await tx.invitation.updateMany({
        where: { id: invitation.id, tokenDigest: invitation.tokenDigest, ...pendingWhere(now) },
        data: { acceptedAt: now, acceptedBy: made.id },
      });
      if (spent.count !== 1) throw new DomainError("invalid_request", deadInvitationMessage("used"));
      await tx.membership.create({ data: { teamId: found.teamId, userId: made.id, role: found.role } });
      await recordTeamAudit(
        tx,
        found.teamId,
        { userId: made.id, ip, userAgent, kind: "person" },
        "team.member_added",
        null,
        { user_id: made.id, email: made.email, role: found.role, via: "invitation" },
      );
      return { id: made.id, email: found.email };
    });
    log.info("team.invitation_accepted", { team_id: found.teamId, user_id: user.id, invitation_id: found.id });
    return { user, slug: found.team.slug };
  } catch (error) {
    // An account made for the address meanwhile by an ordinary sign-up: its insert failed, and nothing was made.
    if (!(error instanceof DomainError) && (await db.user.count({ where: { email: found.email } })) > 0)
      throw hasAccount();
    throw error;
  }
}
