import "server-only";
import { notFound } from "next/navigation";
import type { ActiveSession } from "../auth/session-store";
import { memberBySlug, type TeamMember } from "../teams/membership";
import { requirePageSession } from "./guard";

/**
 * For a team's pages: the session guard, then membership of the team in the
 * URL. Someone outside the team (or a slug that names none) gets the same 404
 * as a page that does not exist, never a 403 that would confirm the team.
 */
export async function requireTeamPage(
  slug: string,
  returnTo: string,
): Promise<{ session: ActiveSession; member: TeamMember }> {
  const session = await requirePageSession(returnTo);
  const member = await memberBySlug(session.userId, slug);
  if (!member) notFound();
  return { session, member };
}
