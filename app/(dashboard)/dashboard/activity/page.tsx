import { redirect } from "next/navigation";
import { personalTeamOf } from "@/lib/teams/membership";
import { requirePageSession } from "@/lib/web/guard";
import { activityPath, withQuery } from "@/lib/web/team-paths";

// GET /dashboard/activity: a link from before teams; the personal team's activity.
export default async function OldActivityLink({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const session = await requirePageSession("/dashboard/activity");
  const { team } = await personalTeamOf(session.userId);
  redirect(withQuery(activityPath(team.slug), await searchParams));
}
