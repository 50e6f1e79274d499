import "server-only";
import { notFound, redirect } from "next/navigation";
import type { ActiveSession } from "../auth/session-store";
import { memberBySlug, type TeamMember } from "../teams/membership";
import { requirePageSession } from "./guard";
import { teamPath } from "./team-paths";

/**
 * For a team's pages: the session guard, then membership of the team in the
 * URL. Someone outside the team (or a slug that names none) gets the same 404
 * as a page that does not exist, never a 403 that would confirm the team. A
 * member the team's two-factor policy holds back is sent to the key list,
 * which shows them only what they may see and asks them to turn it on; only
 * that page passes `heldBack: "shown"`.
 */
export async function requireTeamPage(
  slug: string,
  returnTo: string,
  options: { heldBack?: "shown" } = {},
): Promise<{ session: ActiveSession; member: TeamMember }> {
  const session = await requirePageSession(returnTo);
  const member = await memberBySlug(session.userId, slug);
  if (!member) notFound();
  if (member.twoFactorMissing && options.heldBack !== "shown") redirect(teamPath(member.team.slug));
  return { session, member };
}
