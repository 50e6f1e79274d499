import type { Metadata } from "next";
import Link from "next/link";
import { ActivityList } from "@/components/activity/activity-list";
import { Pagination } from "@/components/pagination";
import { requirePageSession } from "@/lib/web/guard";
import { keyListQuerySchema } from "@/lib/keys/filter.schema";
import { listActivity } from "@/lib/keys/queries";

export const metadata: Metadata = { title: "Activity" };

export default async function ActivityPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const session = await requirePageSession("/dashboard/activity");
  const query = keyListQuerySchema.parse(await searchParams);
  const activity = await listActivity(session.userId, { keyId: query.key, page: query.page });
  const pageHref = (page: number) =>
    `/dashboard/activity?${new URLSearchParams({ ...(query.key ? { key: query.key } : {}), page: String(page) })}`;

  return (
    <>
      <h1 className="text-2xl font-bold" tabIndex={-1}>
        Activity
      </h1>
      <p className="mt-2 text-zinc-700 dark:text-zinc-300">
        {query.key ? (
          <>
            Changes to{" "}
            <Link href={`/dashboard/keys/${query.key}`} className="font-mono break-all">
              {query.key}
            </Link>
            . <Link href="/dashboard/activity">Show all activity</Link>
          </>
        ) : (
          "Every change to your keys, and every sign-in, newest first."
        )}
      </p>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
        Each entry is chained to the one before it by a hash signed with a key only the service holds, so a change to
        the history shows. {/* A download, not a page: a plain link, not Next's client-side navigation. */}
        <a href="/dashboard/activity/chain.json" download className="underline">
          Download the whole log with its hashes (JSON)
        </a>
        .
      </p>
      <div className="mt-6">
        {activity.total === 0 ? (
          <p className="rounded-md border border-dashed border-zinc-300 p-6 dark:border-zinc-700">No activity yet.</p>
        ) : (
          <ActivityList entries={activity.items} />
        )}
      </div>
      <Pagination page={activity.page} pageCount={activity.pageCount} href={pageHref} />
    </>
  );
}
