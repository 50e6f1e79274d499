import Link from "next/link";
import type { ReactNode } from "react";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { StepUpProvider } from "@/components/auth/step-up-dialog";
import { DashboardNav, TeamSwitcher } from "@/components/teams/team-switcher";
import { teamsOf } from "@/lib/teams/membership";
import { optionalSession } from "@/lib/web/guard";
import { stepUpMethods } from "@/lib/auth/step-up";
import { requestLinks } from "@/lib/keys/key-request-views";
import { can } from "@/lib/teams/roles";

// Each page under this layout calls the session guard itself: a layout is
// not re-run on client navigation, so it cannot be the check.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await optionalSession();
  const methods = session ? await stepUpMethods(session.userId) : { password: true, twoFactor: false };
  const memberships = session ? await teamsOf(session.userId) : [];
  // "Requests" in the navigation, with the number waiting for those who decide them (the pages check again).
  const requests = session
    ? await requestLinks(
        session.userId,
        memberships.map((team) => ({ id: team.id, decides: can(team.role, "keys.approve_requests") })),
      )
    : new Map<string, number | null>();
  const teams = memberships.map((team) => ({
    ...team,
    requests: requests.has(team.id) ? { pending: requests.get(team.id) ?? null } : null,
  }));
  return (
    <>
      <header className="border-b border-zinc-200 dark:border-zinc-800">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-4 px-4 py-3">
          <div className="flex min-w-0 flex-wrap items-center gap-3">
            <Link href="/dashboard" className="text-lg font-bold text-zinc-900 no-underline dark:text-zinc-100">
              Keyport
            </Link>
            {session && <TeamSwitcher teams={teams} />}
          </div>
          <DashboardNav teams={teams} />
          {session && (
            <div className="flex min-w-0 flex-wrap items-center gap-3 text-sm">
              <span className="min-w-0 break-all text-zinc-600 dark:text-zinc-400">{session.email}</span>
              <SignOutButton />
            </div>
          )}
        </div>
      </header>
      {/* Above the key dialogs (in the team's layout): a production key change on a stale session asks here, then
          carries on. */}
      <StepUpProvider methods={methods}>
        <main id="main" className="mx-auto max-w-5xl px-4 py-8">
          {children}
        </main>
      </StepUpProvider>
    </>
  );
}
