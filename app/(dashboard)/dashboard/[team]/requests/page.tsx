import type { Metadata } from "next";
import { KeyRequestList } from "@/components/keys/key-request-details";
import { listKeyRequests } from "@/lib/keys/key-request-views";
import { PRODUCTION_KEY_RULE_TEXT } from "@/lib/teams/policies";
import { readTeamPolicy } from "@/lib/teams/policy-store";
import { can } from "@/lib/teams/roles";
import { requireTeamPage } from "@/lib/web/team-guard";
import { keyRequestsPath } from "@/lib/web/team-paths";

export const metadata: Metadata = { title: "Key requests" };

// GET /dashboard/[team]/requests: requests for production keys
// (lib/keys/key-requests.ts). Those who decide them see every one, the
// waiting ones first; anyone else sees their own.
export default async function KeyRequestsPage({ params }: { params: Promise<{ team: string }> }) {
  const { team: slug } = await params;
  const { session, member } = await requireTeamPage(slug, keyRequestsPath(slug));
  const decides = can(member.role, "keys.approve_requests");
  const now = new Date();
  const [requests, policy] = await Promise.all([
    listKeyRequests(member.team.id, decides ? {} : { userId: session.userId }, now),
    readTeamPolicy(member.team.id),
  ]);
  const rule = PRODUCTION_KEY_RULE_TEXT[policy.productionKeys];
  return (
    <>
      <h1 className="text-2xl font-bold" tabIndex={-1}>
        Key requests
      </h1>
      <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
        Production keys in this team: {rule.label}. {rule.sentence}
      </p>
      {requests.length === 0 ? (
        <p className="mt-4 rounded-md border border-dashed border-zinc-300 p-6 text-zinc-700 dark:border-zinc-700 dark:text-zinc-300">
          {decides ? "No one has asked for a production key." : "You have not asked for a production key."}
        </p>
      ) : (
        <KeyRequestList slug={member.team.slug} requests={requests} now={now} />
      )}
    </>
  );
}
