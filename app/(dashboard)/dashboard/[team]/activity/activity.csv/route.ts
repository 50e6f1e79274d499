import { activityCsvStream } from "@/lib/activity-csv";
import { activityQuerySchema } from "@/lib/keys/filter.schema";
import { activityShown } from "@/lib/teams/membership";
import { csvDownload, downloadMember } from "@/lib/web/download-member";

export const dynamic = "force-dynamic";

// GET /dashboard/[team]/activity/activity.csv?kind=keys&key=key_...: the team's
// activity as the page shows it (same filters), for a spreadsheet; addresses
// and browsers only for those the page shows them to (activity.origin). Every
// member may download it; someone outside the team gets the 404 of a team that
// does not exist. An internal route: it checks the browser session itself and
// refuses an API key.
export async function GET(request: Request, { params }: { params: Promise<{ team: string }> }) {
  const member = await downloadMember(request, (await params).team);
  if (member instanceof Response) return member;
  const query = activityQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const stream = activityCsvStream(member.team, {
    keyId: query.key,
    kind: query.kind,
    showOrigin: activityShown(member).showOrigin,
  });
  return csvDownload(stream, `keyport-${member.team.slug}-activity.csv`);
}
