import "server-only";
import type { Actor } from "../audit";
import type { Db } from "../db";
import { memberById, teamNotFound, type TeamMember } from "./membership";

// What every change to a team's members, service accounts or policies starts
// with, in its own transaction: the team's row lock (key changes take the
// same row, lib/keys/lifecycle.ts, so the two take turns), then the acting
// person's role, read under that lock so a role changed a moment before is
// the one that counts.

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/**
 * The team's row lock; a team that is gone is "not found". Counted rather than caught: a failed update (a database
 * too busy to take it in time) goes on as it was, never as "not found" (it did, and a busy database then told a
 * person making a key that their own team was gone, instead of "busy, try again").
 */
export async function lockTeam(tx: Tx, teamId: string, now = new Date()): Promise<void> {
  const { count } = await tx.team.updateMany({ where: { id: teamId }, data: { keysChangedAt: now } });
  if (count === 0) throw teamNotFound();
}

/** The acting person's membership, checked by `needs`; null for the operator, whom no role limits. */
export async function authorise(
  tx: Tx,
  actor: Actor,
  teamId: string,
  needs: (member: TeamMember) => void,
): Promise<TeamMember | null> {
  if ((actor.kind ?? "person") !== "person") return null;
  const member = await memberById(actor.userId, teamId, tx);
  if (!member) throw teamNotFound();
  needs(member);
  return member;
}
