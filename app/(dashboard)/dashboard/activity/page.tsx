import type { Metadata } from "next";
import Link from "next/link";
import { Pagination } from "@/components/pagination";
import { Table, Td, Th, THead } from "@/components/ui/table";
import { requirePageSession } from "@/lib/auth/guard";
import { describeUserAgent } from "@/lib/auth/user-agent";
import { absoluteTime } from "@/lib/format-time";
import { keyListQuerySchema } from "@/lib/keys/filter.schema";
import { listActivity, type ActivityEntry } from "@/lib/keys/queries";

export const metadata: Metadata = { title: "Activity" };

const ACTION_TEXT: Record<string, string> = {
  "key.created": "Key created",
  "key.renamed": "Key renamed",
  "key.rotated": "Key rotated",
  "key.revoked": "Key revoked",
  "key.leaked": "Key reported leaked",
  "auth.sign_in": "Signed in",
};

function detailsText(entry: ActivityEntry): string {
  const d = entry.details ?? {};
  switch (entry.action) {
    case "key.created":
      return `${d.environment === "prod" ? "Production" : "Development"} key “${String(d.label)}”`;
    case "key.renamed":
      return `“${String(d.from)}” → “${String(d.to)}”`;
    case "key.rotated":
      return `Replaced by ${String(d.replacement)}; old key stops ${absoluteTime(new Date(String(d.old_key_stops_at)))}`;
    case "key.revoked":
      return d.reason ? `Reason: ${String(d.reason)}` : "";
    case "key.leaked":
      return d.replacement ? `Revoked at once; replacement ${String(d.replacement)}` : "Revoked at once";
    default:
      return "";
  }
}

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
      <h1 className="text-2xl font-bold">Activity</h1>
      <p className="mt-2 text-zinc-700 dark:text-zinc-300">
        {query.key ? (
          <>
            Changes to <span className="font-mono">{query.key}</span>.{" "}
            <Link href="/dashboard/activity">Show all activity</Link>
          </>
        ) : (
          "Every change to your keys, and every sign-in, newest first."
        )}
      </p>
      <div className="mt-6">
        {activity.total === 0 ? (
          <p className="rounded-md border border-dashed border-zinc-300 p-6 dark:border-zinc-700">No activity yet.</p>
        ) : (
          <Table caption="Activity log">
            <THead>
              <tr>
                <Th>Time</Th>
                <Th>Event</Th>
                <Th>Key</Th>
                <Th>Details</Th>
                <Th>IP address</Th>
                <Th>Browser</Th>
              </tr>
            </THead>
            <tbody>
              {activity.items.map((entry) => (
                <tr key={entry.id} data-testid="activity-row">
                  <Td>
                    <time dateTime={entry.createdAt.toISOString()}>{absoluteTime(entry.createdAt)}</time>
                  </Td>
                  <Td>{ACTION_TEXT[entry.action] ?? entry.action}</Td>
                  <Td>
                    {entry.keyId ? (
                      <Link href={`/dashboard/activity?key=${entry.keyId}`} className="font-mono">
                        {entry.keyId}
                      </Link>
                    ) : (
                      "—"
                    )}
                  </Td>
                  <Td>{detailsText(entry)}</Td>
                  <Td>{entry.ip ?? "unknown"}</Td>
                  <Td>{describeUserAgent(entry.userAgent)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </div>
      <Pagination page={activity.page} pageCount={activity.pageCount} href={pageHref} />
    </>
  );
}
