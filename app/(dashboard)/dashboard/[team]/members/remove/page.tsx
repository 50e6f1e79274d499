import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { RemoveMemberForm } from "@/components/teams/remove-member-form";
import { departingKeys, listMembers } from "@/lib/teams/members";
import { roleRefusal } from "@/lib/teams/membership";
import { can, serviceAccountKeyPermission } from "@/lib/teams/roles";
import { listServiceAccounts } from "@/lib/teams/service-accounts";
import { requireTeamPage } from "@/lib/web/team-guard";
import { membersPath } from "@/lib/web/team-paths";

export const metadata: Metadata = { title: "Remove a member" };

// GET /dashboard/[team]/members/remove?member=<user id>: before a member is
// removed (or leaves), the keys that would stop, each with the choice to hand
// it to one of the team's service accounts instead. The page offers what the
// viewer's role allows; the action checks every choice again under the team's
// lock (lib/teams/members.ts removeMember).
export default async function RemoveMemberPage({
  params,
  searchParams,
}: {
  params: Promise<{ team: string }>;
  searchParams: Promise<{ member?: string | string[] }>;
}) {
  const { team: slug } = await params;
  const { member: memberParam } = await searchParams;
  const userId = typeof memberParam === "string" ? memberParam : "";
  const { session, member } = await requireTeamPage(slug, `${membersPath(slug)}/remove?member=${userId}`);
  if (member.team.personal) notFound();
  const target = (await listMembers(member.team.id)).find((m) => m.userId === userId);
  // Said, not a 404: without JavaScript the browser comes back here once the removal is done.
  if (!target)
    return (
      <>
        <h1 className="text-2xl font-bold">Remove a member</h1>
        <p className="mt-4" role="status">
          That person is not a member of this team (any more). <Link href={membersPath(slug)}>Back to the members</Link>
        </p>
      </>
    );
  const self = target.userId === session.userId;
  const permission = target.role === "owner" ? "members.manage_owners" : "members.manage";
  if (!self && !can(member.role, permission)) {
    return (
      <>
        <h1 className="text-2xl font-bold break-words">Remove {target.email}</h1>
        <p className="mt-4" role="alert">
          {roleRefusal(member.role, permission).message}
        </p>
      </>
    );
  }
  const [keys, serviceAccounts] = await Promise.all([
    departingKeys(member.team.id, userId),
    listServiceAccounts(member.team.id),
  ]);

  return (
    <>
      <p className="text-sm">
        <Link href={membersPath(slug)}>← Members of {member.team.name}</Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold break-words" tabIndex={-1}>
        {self ? `Leave ${member.team.name}` : `Remove ${target.email}`}
      </h1>
      <RemoveMemberForm
        team={slug}
        userId={userId}
        email={target.email ?? ""}
        self={self}
        keys={[...keys.own, ...keys.known].map((key) => ({
          id: key.id,
          label: key.label,
          environment: key.environment,
          displayFragment: key.displayFragment,
          rotated: key.successor !== null,
          serviceAccount: key.serviceAccount?.name ?? null,
          // Whether this person may hand the key to a service account, or change a service account's key: the role
          // that manages those keys. A decoy never works, so there is nothing to hand over: it is revoked.
          mayHandOver: !key.decoy && can(member.role, serviceAccountKeyPermission(key.environment)),
        }))}
        serviceAccounts={serviceAccounts.map((account) => ({ id: account.id, name: account.name }))}
        mayCreateServiceAccount={can(member.role, "service_accounts.manage")}
      />
    </>
  );
}
