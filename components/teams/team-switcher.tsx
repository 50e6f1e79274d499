"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { DropdownMenu } from "radix-ui";
import { popoverItemClasses, popoverPanelClasses } from "@/components/ui/popover-styles";
import { isRole, can } from "@/lib/teams/roles";
import { keyRequestsPath, settingsPath, teamPath } from "@/lib/web/team-paths";

export interface SwitcherTeam {
  slug: string;
  name: string;
  role: string;
  personal: boolean;
  /** "Requests" for production keys, when worth a link: with the number waiting, for those who decide them. */
  requests?: { pending: number | null } | null;
}

// A team's entry: its name over its role, left-aligned (the shared item look centres a single line).
const TEAM_ITEM =
  "flex min-h-10 min-w-0 cursor-pointer flex-col items-start justify-center rounded px-3 py-1 text-sm no-underline outline-none select-none data-highlighted:bg-zinc-100 dark:data-highlighted:bg-zinc-800";

/** The team a dashboard path is in: its first segment, when it names one of the person's teams. */
function currentTeam(pathname: string, teams: SwitcherTeam[]): SwitcherTeam | undefined {
  const [, first, slug] = pathname.split("/");
  return first === "dashboard" ? teams.find((team) => team.slug === slug) : undefined;
}

/**
 * The header's team switcher: the team this page is in, and a menu of the
 * person's teams (each opens its key list) and "New team". Someone in one
 * team sees its name and the menu holds that one team and "New team".
 */
export function TeamSwitcher({ teams }: { teams: SwitcherTeam[] }) {
  const pathname = usePathname();
  const current = currentTeam(pathname, teams);
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        className="inline-flex min-h-10 max-w-full min-w-0 items-center gap-2 rounded-md border border-zinc-300 px-3 text-sm font-medium hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
        aria-label={current ? `Team: ${current.name}. Switch team` : "Switch team"}
        data-testid="team-switcher"
      >
        <span className="truncate">{current ? current.name : "Teams"}</span>
        <span aria-hidden>▾</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={4}
          className={`${popoverPanelClasses} max-w-[min(22rem,90vw)] p-1`}
        >
          <DropdownMenu.Label className="px-3 py-1 text-xs text-zinc-600 dark:text-zinc-400">
            Your teams
          </DropdownMenu.Label>
          {teams.map((team) => (
            <DropdownMenu.Item key={team.slug} asChild className={TEAM_ITEM}>
              <Link href={teamPath(team.slug)} aria-current={team.slug === current?.slug ? "page" : undefined}>
                <span className="max-w-full overflow-hidden font-medium [overflow-wrap:anywhere]">
                  {team.slug === current?.slug && <span aria-hidden>✓ </span>}
                  {team.name}
                  {team.slug === current?.slug && <span className="sr-only"> (this team)</span>}
                </span>
                <span className="text-xs text-zinc-600 dark:text-zinc-400">
                  {team.personal ? "personal · " : ""}
                  {team.role}
                </span>
              </Link>
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className="my-1 h-px bg-zinc-200 dark:bg-zinc-700" />
          <DropdownMenu.Item asChild className={popoverItemClasses}>
            <Link href="/dashboard/teams/new" className="no-underline">
              New team
            </Link>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/**
 * The dashboard's links; "API keys" and "Members" stay in the team the page is in (the personal team elsewhere), and
 * "Settings" is there for those whose role sets the team's policies (the page checks the role again).
 */
export function DashboardNav({ teams }: { teams: SwitcherTeam[] }) {
  const pathname = usePathname();
  const team = currentTeam(pathname, teams);
  const items = [
    { title: "API keys", href: team ? teamPath(team.slug) : "/dashboard" },
    ...(team ? [{ title: "Members", href: `${teamPath(team.slug)}/members` }] : []),
    ...(team?.requests
      ? [{ title: "Requests", href: keyRequestsPath(team.slug), waiting: team.requests.pending }]
      : []),
    ...(team && isRole(team.role) && can(team.role, "team.policies")
      ? [{ title: "Settings", href: settingsPath(team.slug) }]
      : []),
    { title: "Account", href: "/account" },
    { title: "Docs", href: "/docs" },
  ];
  return (
    <nav aria-label="Dashboard">
      <ul className="flex flex-wrap gap-4 text-sm font-medium">
        {items.map((item) => (
          <li key={item.title}>
            <Link href={item.href}>
              {item.title}
              {"waiting" in item && item.waiting ? (
                <span
                  className="ml-1 rounded-full bg-indigo-600 px-1.5 py-0.5 text-xs font-semibold text-white no-underline dark:bg-indigo-400 dark:text-zinc-950"
                  data-testid="requests-badge"
                >
                  {item.waiting}
                  <span className="sr-only"> waiting for a decision</span>
                </span>
              ) : null}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
