import type { Metadata } from "next";
import Link from "next/link";
import { DeleteTeamForm, RenameTeamForm, RoleForm } from "@/components/teams/member-controls";
import { InviteForm, PendingInvitations } from "@/components/teams/invitations";
import { ServiceAccounts } from "@/components/teams/service-accounts";
import { listInvitations } from "@/lib/teams/invitations";
import { Timestamp } from "@/components/ui/timestamp";
import { listMembers } from "@/lib/teams/members";
import { listServiceAccounts } from "@/lib/teams/service-accounts";
import { RoleMatrix } from "@/components/teams/role-matrix";
import { can, ROLES } from "@/lib/teams/roles";
import { readTeamPolicy } from "@/lib/teams/policy-store";
import { Badge } from "@/components/ui/badge";
import { requireTeamPage } from "@/lib/web/team-guard";
import { membersPath } from "@/lib/web/team-paths";

export const metadata: Metadata = { title: "Members" };

// GET /dashboard/[team]/members: who is in the team and as what, and its
// service accounts. Admins change roles and remove members other than owners;
// owners any. A removal (or leaving) goes through its own page, which lists the
// member's keys and offers to hand each to a service account. What a role may
// do is the roles table's (lib/teams/roles.ts), shown below the list.
export default async function MembersPage({ params }: { params: Promise<{ team: string }> }) {
  const { team: slug } = await params;
  const { session, member } = await requireTeamPage(slug, membersPath(slug));
  const [members, serviceAccounts, invitations, policy] = await Promise.all([
    listMembers(member.team.id),
    member.team.personal ? [] : listServiceAccounts(member.team.id),
    member.team.personal || !can(member.role, "members.manage") ? [] : listInvitations(member.team.id),
    readTeamPolicy(member.team.id),
  ]);
  // Under "two-factor required", who has not turned it on: they see only the key list until they do.
  const withoutTwoFactor = policy.requireTwoFactor ? members.filter((m) => !m.twoFactor) : [];
  const now = new Date();
  // The server refuses the last owner's leaving whatever the page shows; the page says so instead of offering it.
  const lastOwner = member.role === "owner" && members.filter((m) => m.role === "owner").length === 1;
  const mayManage = (role: string) => can(member.role, role === "owner" ? "members.manage_owners" : "members.manage");

  return (
    <>
      <h1 className="text-2xl font-bold break-words" tabIndex={-1}>
        Members of {member.team.name}
      </h1>
      <p className="mt-2 text-zinc-700 dark:text-zinc-300">
        You are {member.role === "admin" || member.role === "owner" ? "an" : "a"} <strong>{member.role}</strong> of this
        team.{" "}
        {member.team.personal
          ? "This is your personal team: it has you alone."
          : "When someone leaves or is removed, the keys they made in this team stop working at once, unless they are handed to a service account."}
      </p>
      {withoutTwoFactor.length > 0 && (
        <p
          role="note"
          className="mt-4 rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-100"
          data-testid="members-without-two-factor"
        >
          This team requires two-factor sign-in.{" "}
          {withoutTwoFactor.length === 1 ? "One member has" : `${withoutTwoFactor.length} members have`} not turned it
          on, marked below: they see only the key list until they do. They were mailed when the policy was turned on.
        </p>
      )}
      {can(member.role, "team.rename") && (
        <div className="mt-6">
          <RenameTeamForm team={member.team.slug} name={member.team.name} />
        </div>
      )}
      <ul className="mt-6 divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
        {members.map((m) => {
          const self = m.userId === session.userId;
          return (
            <li key={m.userId} data-testid="member-row" className="flex flex-col gap-3 px-4 py-3 text-sm">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <span className="min-w-0 font-medium break-all">
                  {m.email}
                  {self && " (you)"}
                  {policy.requireTwoFactor && !m.twoFactor && (
                    <Badge tone="warning" className="ml-2">
                      No two-factor
                    </Badge>
                  )}
                </span>
                <span className="text-zinc-600 dark:text-zinc-400">
                  {m.role} · joined <Timestamp date={m.since} now={now} className="text-xs" />
                </span>
              </div>
              {!member.team.personal && (
                <div className="flex flex-wrap items-end gap-4">
                  {mayManage(m.role) && !self && (
                    <RoleForm team={member.team.slug} userId={m.userId} email={m.email ?? ""} role={m.role} />
                  )}
                  {self && lastOwner ? (
                    <p className="text-sm text-zinc-700 dark:text-zinc-300">
                      You are this team&apos;s only owner: make someone else an owner before you leave.
                    </p>
                  ) : (
                    (self || mayManage(m.role)) && (
                      <Link
                        href={`${membersPath(member.team.slug)}/remove?member=${encodeURIComponent(m.userId)}`}
                        className="rounded-md border border-red-300 px-3 py-2 font-medium text-red-800 no-underline hover:bg-red-50 dark:border-red-800 dark:text-red-200 dark:hover:bg-red-950"
                        aria-label={self ? "Leave this team" : `Remove ${m.email}`}
                      >
                        {self ? "Leave team…" : "Remove…"}
                      </Link>
                    )
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ul>

      {!member.team.personal && can(member.role, "members.manage") && (
        <section aria-labelledby="invitations-heading" className="mt-10">
          <h2 id="invitations-heading" className="text-lg font-semibold">
            Invitations
          </h2>
          <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
            An invitation mails a link that works for 7 days, once, and only for that address: its owner signs in with
            it, or creates an account from the link, and joins with the role you chose.
          </p>
          <InviteForm team={member.team.slug} roles={ROLES.filter((role) => mayManage(role))} />
          <h3 className="mt-6 font-semibold">Waiting</h3>
          <PendingInvitations
            team={member.team.slug}
            invitations={invitations}
            mayChange={Object.fromEntries(invitations.map((i) => [i.id, mayManage(i.role)]))}
            now={now}
          />
        </section>
      )}
      {!member.team.personal && (
        <ServiceAccounts
          team={member.team.slug}
          accounts={serviceAccounts}
          mayCreate={can(member.role, "service_accounts.manage")}
          now={now}
        />
      )}

      <section aria-labelledby="roles-heading" className="mt-10">
        <h2 id="roles-heading" className="text-lg font-semibold">
          What each role may do
        </h2>
        <div className="mt-3">
          <RoleMatrix />
        </div>
      </section>
      {!member.team.personal && can(member.role, "team.delete") && (
        <section
          aria-labelledby="delete-heading"
          className="mt-10 rounded-md border border-red-300 p-4 dark:border-red-900"
        >
          <h2 id="delete-heading" className="text-lg font-semibold">
            Delete this team
          </h2>
          <div className="mt-2">
            <DeleteTeamForm team={member.team.slug} />
          </div>
        </section>
      )}
    </>
  );
}
