import type { ReactNode } from "react";
import { notFound } from "next/navigation";
import { KeyDialogsProvider } from "@/components/keys/key-dialogs";
import { TeamProvider } from "@/components/teams/team-context";
import { restrictionOptions } from "@/lib/keys/restriction-options";
import { routesByScope } from "@/lib/public-api/routes";
import { memberBySlug } from "@/lib/teams/membership";
import { listServiceAccounts } from "@/lib/teams/service-accounts";
import { readTeamPolicy } from "@/lib/teams/policy-store";
import { optionalSession } from "@/lib/web/guard";

// A team's pages. The layout hands the team to the client components (links,
// the forms' team field, disabled controls); it is not the check, since a
// layout does not run again on client navigation: each page calls
// requireTeamPage itself, and each action checks on the server.
export default async function TeamLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ team: string }>;
}) {
  const { team: slug } = await params;
  const session = await optionalSession();
  // No session: the page sends the browser to sign in.
  if (!session) return children;
  const member = await memberBySlug(session.userId, slug);
  if (!member) notFound();
  // The key dialog offers them as a new key's owner (the server checks the choice again).
  const [serviceAccounts, policy] = await Promise.all([
    // Nor to a member the two-factor policy holds back: they see the key list only (the names are the team's).
    member.team.personal || member.twoFactorMissing
      ? []
      : listServiceAccounts(member.team.id).then((accounts) => accounts.map(({ id, name }) => ({ id, name }))),
    readTeamPolicy(member.team.id),
  ]);
  return (
    <TeamProvider
      value={{
        slug: member.team.slug,
        name: member.team.name,
        role: member.role,
        userId: session.userId,
        serviceAccounts,
        policy,
      }}
    >
      {/* The key dialogs sit here, above every page of the team, so a new secret outlives any change of the page
          under it. */}
      <KeyDialogsProvider options={restrictionOptions(routesByScope())}>{children}</KeyDialogsProvider>
    </TeamProvider>
  );
}
