import type { Metadata } from "next";
import Link from "next/link";
import { CreateKeyButton } from "@/components/keys/key-buttons";
import { KeyFilters } from "@/components/keys/key-filters";
import { WHOLE_KEY_IN_SEARCH } from "@/lib/keys/search";
import { HeldBackKeyList, KeyList } from "@/components/keys/key-list";
import { TWO_FACTOR_REQUIRED_REFUSAL } from "@/lib/teams/policies";
import { ReportedLeaksNotice } from "@/components/keys/reported-leaks-notice";
import { Pagination } from "@/components/pagination";
import { buttonClasses } from "@/components/ui/button";
import { requireTeamPage } from "@/lib/web/team-guard";
import { readTeamPolicy } from "@/lib/teams/policy-store";
import { activityPath, teamPath } from "@/lib/web/team-paths";
import { keyListQuerySchema } from "@/lib/keys/filter.schema";
import { holdsApiKey } from "@/lib/keys/key-in-text";
import { decoyUses, getKey, listKeys, listReportedLeaks, type DecoyUses } from "@/lib/keys/queries";
import { displayIp } from "@/lib/format-ip";
import { absoluteTime } from "@/lib/format-time";
import type { UsageNote } from "@/components/keys/key-list";
import { afterEndText } from "@/components/usage/after-end-notice";
import { rotationShareText } from "@/components/usage/rotation-meter";
import { requestsLast24h } from "@/lib/usage/queries";
import { listSignals } from "@/lib/usage/signals";

export const metadata: Metadata = { title: "API keys" };

/** The badge under a decoy's label once it has been used: wherever it was kept has leaked. */
function decoyUseText(use: DecoyUses): string {
  const times = use.count === 1 ? "once" : `${use.count} times`;
  return `Decoy used ${times}, latest alert from ${displayIp(use.lastIp)} at ${absoluteTime(use.lastAt)}: where it was kept has leaked`;
}

/**
 * What a member the team's two-factor policy holds back sees of it: a request to turn two-factor on, and the key list
 * (label, fragment, status) with "This key leaked", which makes no replacement for them.
 */
async function HeldBackPage({
  teamId,
  name,
  base,
  page,
}: {
  teamId: string;
  name: string;
  base: string;
  page?: number | undefined;
}) {
  const now = new Date();
  const keys = await listKeys(teamId, { page }, now);
  return (
    <>
      <h1 className="text-2xl font-bold break-words" tabIndex={-1}>
        Turn on two-factor sign-in to use {name}
      </h1>
      <div
        role="note"
        className="mt-4 max-w-2xl rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-100"
        data-testid="two-factor-required"
      >
        <p>{TWO_FACTOR_REQUIRED_REFUSAL}</p>
        <p className="mt-2">
          The keys you made keep working meanwhile. If one of them leaked, report it below: it stops working at once.
        </p>
        <p className="mt-3">
          <Link href="/account/two-factor" className={buttonClasses("primary")}>
            Turn on two-factor sign-in
          </Link>
        </p>
      </div>
      <div className="mt-6">
        {keys.total === 0 ? (
          <p className="text-zinc-700 dark:text-zinc-300">This team has no API keys in use.</p>
        ) : (
          <HeldBackKeyList keys={keys.items} />
        )}
      </div>
      <Pagination page={keys.page} pageCount={keys.pageCount} href={(n) => `${base}?page=${n}`} />
    </>
  );
}

// GET /dashboard/[team]: the team's keys.
export default async function TeamKeysPage({
  params,
  searchParams,
}: {
  params: Promise<{ team: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { team: slug } = await params;
  const { member } = await requireTeamPage(slug, teamPath(slug), { heldBack: "shown" });
  const teamId = member.team.id;
  const base = teamPath(member.team.slug);
  const raw = await searchParams;
  const parsed = keyListQuerySchema.parse(raw);
  // A whole key in the search (JavaScript off, or a link someone made) is not searched for, echoed or kept in links.
  // Read before the search is cut to its length (an attack review: a key past the cut lost only its checksum, and
  // its secret part was shown back).
  // And after it is cleaned: taking a control character out of the middle of a key made it whole again (an attack
  // review: `sk_dev_…%01…`).
  const wholeKey = [raw.q, parsed.q].flat().some((text) => typeof text === "string" && holdsApiKey(text));
  const query = wholeKey ? { ...parsed, q: undefined } : parsed;
  if (member.twoFactorMissing)
    return <HeldBackPage teamId={teamId} name={member.team.name} base={base} page={query.page} />;
  const now = new Date();
  const filter = {
    environment: query.env,
    status: query.status,
    showInactive: Boolean(query.inactive),
    search: query.q,
  };
  const keys = await listKeys(teamId, { ...filter, page: query.page }, now);
  // A key just created stays in sight even when the filters would hide it.
  const created = query.created ? await getKey(teamId, query.created, now) : null;
  const pinned = created && !keys.items.some((key) => key.id === created.id) ? created : undefined;
  const shownIds = [...keys.items, ...(pinned ? [pinned] : [])].map((key) => key.id);
  const shown = [...keys.items, ...(pinned ? [pinned] : [])];
  const [requests24h, signals, reportedLeaks, decoys, policy] = await Promise.all([
    requestsLast24h(teamId, shownIds, now),
    listSignals(teamId, shown, now),
    listReportedLeaks(teamId),
    decoyUses(
      teamId,
      shown.filter((key) => key.decoy).map((key) => key.id),
    ),
    readTeamPolicy(teamId),
  ]);
  // Under a key's label: use after it stopped working, and how far its rotation has got.
  const usageNotes: Record<string, UsageNote[]> = {};
  for (const key of shown) {
    const afterEnd = signals.afterEnd.get(key.id);
    const rotation = signals.rotation.get(key.id);
    const share = rotation ? rotationShareText(rotation) : null;
    const decoy = decoys.get(key.id);
    const notes: UsageNote[] = [
      ...(decoy ? [{ text: decoyUseText(decoy), tone: "danger" as const }] : []),
      ...(afterEnd ? [{ text: afterEndText(key, afterEnd), tone: "danger" as const }] : []),
      ...(share ? [{ text: share, tone: "warning" as const }] : []),
    ];
    if (notes.length > 0) usageNotes[key.id] = notes;
  }

  const pageHref = (page: number) => {
    const params = new URLSearchParams();
    if (query.env) params.set("env", query.env);
    if (query.status) params.set("status", query.status);
    if (query.inactive) params.set("inactive", "1");
    if (query.q) params.set("q", query.q);
    params.set("page", String(page));
    return `${base}?${params}`;
  };
  const filtered = Boolean(query.env || query.status);
  const count = keys.total === 1 ? "1 key" : `${keys.total} keys`;
  const verb = keys.total === 1 ? "matches" : "match";
  const matching = query.q
    ? `${count} ${verb} “${query.q}”${filtered ? " and the filters" : ""}`
    : filtered
      ? `${count} ${verb} the filters`
      : count;

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold" tabIndex={-1}>
          API keys
        </h1>
        <div className="flex flex-wrap gap-2">
          <Link href={activityPath(member.team.slug)} className={buttonClasses("secondary")}>
            Activity
          </Link>
          <CreateKeyButton />
        </div>
      </div>
      <ReportedLeaksNotice leaks={reportedLeaks} />
      <div className="mt-6">
        <KeyFilters
          values={{ env: query.env, status: query.status, inactive: Boolean(query.inactive), q: query.q }}
          searchError={wholeKey ? WHOLE_KEY_IN_SEARCH : undefined}
        />
      </div>
      <p className="mt-4 text-sm text-zinc-700 dark:text-zinc-300" aria-live="polite" data-testid="key-count">
        {matching}
        {pinned ? `, plus “${pinned.label}”, just created, which does not.` : "."}
        {!query.status && !query.inactive && " Revoked and expired keys are hidden."}
        {(filtered || query.q) && (
          <>
            {" "}
            {/* A whole load, not a client navigation: the form's fields would keep what they held. */}
            <a href={base}>{query.q ? "Clear the search and filters" : "Clear filters"}</a>
          </>
        )}
      </p>
      <div className="mt-4">
        {keys.total === 0 && !pinned ? (
          <p className="rounded-md border border-dashed border-zinc-300 p-6 text-zinc-700 dark:border-zinc-700 dark:text-zinc-300">
            {query.q
              ? `No keys match “${query.q}”${filtered ? " and these filters" : ""}.`
              : filtered
                ? "No keys match these filters."
                : member.team.personal
                  ? "You have no API keys in use. Create one to call the API."
                  : "This team has no API keys in use. Create one to call the API."}
          </p>
        ) : (
          <KeyList
            slug={member.team.slug}
            member={{ ...member, productionKeys: policy.productionKeys }}
            keys={keys.items}
            now={now}
            pinned={pinned}
            requests24h={requests24h}
            usageNotes={usageNotes}
          />
        )}
      </div>
      <Pagination page={keys.page} pageCount={keys.pageCount} href={pageHref} />
    </>
  );
}
