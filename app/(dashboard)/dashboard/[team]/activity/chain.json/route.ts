import { exportTeamChain } from "@/lib/audit-chain-store";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { errorResponse } from "@/lib/errors/error-response";
import { activityShown, roleRefusal } from "@/lib/teams/membership";
import { chainDownload } from "@/lib/web/chain-download";
import { downloadMember } from "@/lib/web/download-member";

export const dynamic = "force-dynamic";

// GET /dashboard/[team]/activity/chain.json: the team's whole activity chain,
// each row with its hash and who acted, and the signed head, as a download.
// An operator checks it offline with the deployment's ENCRYPTION_KEY (npm run
// -s admin -- audit:verify --file F). It holds every change's address and
// browser, so it is for those who see them (activity.origin in the roles
// table); someone outside the team gets the 404 of a team that does not exist.
// An internal route: it checks the browser session itself and refuses an API key.
export async function GET(request: Request, { params }: { params: Promise<{ team: string }> }) {
  const member = await downloadMember(request, (await params).team);
  if (member instanceof Response) return member;
  const baseUrl = getEnv().PUBLIC_BASE_URL;
  // A member whose role lacks it: the refusal every action gives a role (a member knows the team is there).
  if (!activityShown(member).showOrigin) {
    return errorResponse("invalid_request", { baseUrl, message: roleRefusal(member.role, "activity.origin").message });
  }
  const chain = await exportTeamChain(db, member.team.id);
  return chainDownload(chain, `keyport-${member.team.slug}-activity`);
}
