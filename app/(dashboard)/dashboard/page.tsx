import { redirect } from "next/navigation";
import { personalTeamOf } from "@/lib/teams/membership";
import { requirePageSession } from "@/lib/web/guard";
import { teamPath, withQuery } from "@/lib/web/team-paths";

// GET /dashboard: the key list of the person's personal team, with the query
// string kept (links from before teams, like /dashboard?env=prod, still work).
export default async function DashboardPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const session = await requirePageSession("/dashboard");
  const { team } = await personalTeamOf(session.userId);
  redirect(withQuery(teamPath(team.slug), await searchParams));
}
