import type { Metadata } from "next";
import Link from "next/link";
import { ActivityList } from "@/components/activity/activity-list";
import { Pagination } from "@/components/pagination";
import { activityShown } from "@/lib/teams/membership";
import { requireTeamPage } from "@/lib/web/team-guard";

import { activityPath, keyPath } from "@/lib/web/team-paths";
import { activityQuerySchema } from "@/lib/keys/filter.schema";
import { listActivity, teamKeyChoices } from "@/lib/keys/queries";
import { ActivityFilters } from "@/components/activity/activity-filters";
import { ACTIVITY_KINDS, TEAM_ACTIVITY_KINDS } from "@/lib/activity-events";

export const metadata: Metadata = { title: "Activity" };

// GET /dashboard/[team]/activity: every change to the team's keys and members, whoever made it.
export default async function ActivityPage({
  params,
  searchParams,
}: {
  params: Promise<{ team: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { team: slug } = await params;
  const { member } = await requireTeamPage(slug, activityPath(slug));
  const base = activityPath(member.team.slug);
  const query = activityQuerySchema.parse(await searchParams);
  const [activity, keys] = await Promise.all([
    listActivity(member.team, { keyId: query.key, kind: query.kind, page: query.page }),
    teamKeyChoices(member.team.id),
  ]);
  const shown = activityShown(member);
  const filters = { ...(query.key ? { key: query.key } : {}), ...(query.kind ? { kind: query.kind } : {}) };
  const pageHref = (page: number) => `${base}?${new URLSearchParams({ ...filters, page: String(page) })}`;
  const csvHref = `${base}/activity.csv${Object.keys(filters).length > 0 ? `?${new URLSearchParams(filters)}` : ""}`;

  return (
    <>
      <h1 className="text-2xl font-bold" tabIndex={-1}>
        Activity
      </h1>
      <p className="mt-2 text-zinc-700 dark:text-zinc-300">
        {query.key ? (
          <>
            Changes to{" "}
            <Link href={keyPath(member.team.slug, query.key)} className="font-mono break-all">
              {query.key}
            </Link>
            . <Link href={base}>Show all activity</Link>
          </>
        ) : member.team.personal ? (
          <>
            Every change to your keys, newest first. Your sign-ins and account changes are on your{" "}
            <Link href="/account#activity-heading" className="underline">
              account page
            </Link>
            .
          </>
        ) : (
          "Every change to this team's keys and members, by anyone, newest first."
        )}
      </p>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
        Each entry is chained to the one before it by a hash signed with a key only the service holds, so a change to
        the history shows. {/* Downloads, not pages: plain links, not Next's client-side navigation. */}
        <a href={csvHref} download className="underline">
          Download {Object.keys(filters).length > 0 ? "these entries" : "the log"} as CSV
        </a>
        {shown.showOrigin && (
          <>
            {" "}
            or{" "}
            <a href={`${base}/chain.json`} download className="underline">
              the whole log with its hashes (JSON)
            </a>
          </>
        )}
        .
      </p>
      <div className="mt-4">
        <ActivityFilters
          base={base}
          kinds={TEAM_ACTIVITY_KINDS.map((kind) => [kind, ACTIVITY_KINDS[kind]] as const)}
          keys={keys.map((key) => [key.id, `${key.label} (${key.id})`] as const)}
          values={{ kind: query.kind, key: query.key }}
        />
      </div>
      <div className="mt-6">
        {activity.total === 0 ? (
          <p className="rounded-md border border-dashed border-zinc-300 p-6 dark:border-zinc-700">
            {Object.keys(filters).length > 0 ? "No activity matches these filters." : "No activity yet."}
          </p>
        ) : (
          <ActivityList slug={member.team.slug} {...shown} entries={activity.items} />
        )}
      </div>
      <Pagination page={activity.page} pageCount={activity.pageCount} href={pageHref} />
    </>
  );
}
