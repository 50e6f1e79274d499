import type { Metadata } from "next";
import Link from "next/link";
import { CreateKeyDialog } from "@/components/keys/create-key-dialog";
import { KeyTable } from "@/components/keys/key-table";
import { Pagination } from "@/components/pagination";
import { buttonClasses } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
import { requirePageSession } from "@/lib/auth/guard";
import { keyListQuerySchema } from "@/lib/keys/filter.schema";
import { listKeys } from "@/lib/keys/queries";

export const metadata: Metadata = { title: "API keys" };

export default async function DashboardPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const session = await requirePageSession("/dashboard");
  const query = keyListQuerySchema.parse(await searchParams);
  const now = new Date();
  const keys = await listKeys(session.userId, { environment: query.env, status: query.status, page: query.page }, now);
  const pageHref = (page: number) => {
    const params = new URLSearchParams();
    if (query.env) params.set("env", query.env);
    if (query.status) params.set("status", query.status);
    params.set("page", String(page));
    return `/dashboard?${params}`;
  };
  const filtered = Boolean(query.env || query.status);

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold">API keys</h1>
        <div className="flex gap-2">
          <Link href="/dashboard/activity" className={buttonClasses("secondary")}>
            Activity
          </Link>
          <CreateKeyDialog />
        </div>
      </div>
      <form method="get" className="mt-6 flex flex-wrap items-end gap-3" aria-label="Filter keys">
        <Select
          label="Environment"
          name="env"
          defaultValue={query.env ?? ""}
          options={[
            ["", "All"],
            ["dev", "Development"],
            ["prod", "Production"],
          ]}
        />
        <Select
          label="Status"
          name="status"
          defaultValue={query.status ?? ""}
          options={[
            ["", "All"],
            ["active", "Active"],
            ["expiring", "Expiring after rotation"],
            ["expired", "Expired"],
            ["revoked", "Revoked"],
          ]}
        />
        <button type="submit" className={buttonClasses("secondary")}>
          Filter
        </button>
        {filtered && <Link href="/dashboard">Clear filters</Link>}
      </form>
      <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
        {keys.total === 1 ? "1 key" : `${keys.total} keys`}
        {filtered ? " match the filters." : "."}
      </p>
      <div className="mt-4">
        {keys.total === 0 ? (
          <p className="rounded-md border border-dashed border-zinc-300 p-6 text-zinc-700 dark:border-zinc-700 dark:text-zinc-300">
            {filtered ? "No keys match these filters." : "You have no API keys yet."}
          </p>
        ) : (
          <KeyTable keys={keys.items} now={now} />
        )}
      </div>
      <Pagination page={keys.page} pageCount={keys.pageCount} href={pageHref} />
    </>
  );
}
