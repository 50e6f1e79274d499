import Link from "next/link";
import { keyPath, keyRequestPath } from "@/lib/web/team-paths";
import { OPERATOR_USER_AGENT } from "@/lib/admin/operator-agent";
import { Timestamp } from "@/components/ui/timestamp";
import { describeUserAgent } from "@/lib/auth/user-agent";
import { displayIp } from "@/lib/format-ip";
import { absoluteTime } from "@/lib/format-time";
import { KEY_ID_PATTERN, KEY_REQUEST_ID_PATTERN } from "@/lib/keys/format";
import type { ActivityEntry } from "@/lib/keys/queries";
import { activityText } from "@/lib/activity-events";

// The activity log as a list: each entry reads top to bottom on a phone and
// lays out in a row on a wide screen.

const POLICY_NAMES: Record<string, string> = {
  production_keys: "who creates production keys",
  max_lifetime_days_prod: "production key lifetime",
  max_lifetime_days_dev: "development key lifetime",
  require_two_factor: "two-factor sign-in",
};

const policyValue = (name: string, value: unknown) =>
  name === "require_two_factor"
    ? value
      ? "required"
      : "not required"
    : value === null
      ? "no maximum"
      : name === "production_keys"
        ? String(value)
        : `${String(value)} days`;

/** Each policy a change moved, from and to (lib/teams/policy-store.ts). */
function PolicyChanges({ changes }: { changes: Record<string, unknown> }) {
  const moved = Object.entries(changes).filter(([name]) => name in POLICY_NAMES);
  return (
    <>
      {moved.map(([name, change], index) => {
        const { from, to } = (change ?? {}) as { from?: unknown; to?: unknown };
        return (
          <span key={name}>
            {index > 0 && "; "}
            {POLICY_NAMES[name]}: {policyValue(name, from)} → {policyValue(name, to)}
          </span>
        );
      })}
    </>
  );
}

const keyLink = (slug: string, id: unknown) =>
  typeof id === "string" && KEY_ID_PATTERN.test(id) ? (
    <Link href={keyPath(slug, id)} className="font-mono">
      {id}
    </Link>
  ) : null;

const requestLink = (slug: string, id: unknown) =>
  typeof id === "string" && KEY_REQUEST_ID_PATTERN.test(id) ? (
    <Link href={keyRequestPath(slug, id)} className="font-mono">
      {id}
    </Link>
  ) : null;

/** Changes made with no one signed in: by a report, in the name of its source. */
const REPORTERS: Record<string, string> = {
  "secret-scanning": "By Keyport, on GitHub's secret-scanning report",
  "public-report": "By Keyport, on a report through the public form",
};

function Details({ slug, entry }: { slug: string; entry: ActivityEntry }) {
  const d = entry.details ?? {};
  switch (entry.action) {
    case "key.created":
      return (
        <>
          {d.environment === "prod" ? "Production" : "Development"} key “<bdi>{String(d.label)}</bdi>”
          {typeof d.replaces === "string" && (
            <>
              , replacing {keyLink(slug, d.replaces)} ({d.via === "leak" ? "reported leaked" : "rotation"})
            </>
          )}
          {d.override_policy === true && <>; made by the operator past the team&apos;s policies</>}
          {typeof d.request === "string" && (
            <>, revealed by its requester after an admin approved {requestLink(slug, d.request)}</>
          )}
        </>
      );
    case "team.policy_changed":
      return <PolicyChanges changes={d} />;
    case "key.requested":
    case "key.request_approved":
    case "key.request_denied":
      return (
        <>
          “<bdi>{String(d.label)}</bdi>”, {requestLink(slug, d.request)}
        </>
      );
    case "key.renamed":
    case "team.renamed":
      return <Change from={d.from} to={d.to} />;
    case "key.rotated":
      return (
        <>
          Replaced by {keyLink(slug, d.replacement)}; old key stops {absoluteTime(new Date(String(d.old_key_stops_at)))}
        </>
      );
    case "key.revoked":
      return d.reason ? <>Reason: {String(d.reason)}</> : null;
    case "key.leaked":
      return (
        <>
          {d.source === "secret-scanning" && "Found in public code by GitHub secret scanning; "}
          {d.source === "public-report" && "Reported through the public report form; "}
          {d.source === "secret-scanning" || d.source === "public-report" ? "revoked" : "Revoked"} at once
          {d.replacement && <>; replacement {keyLink(slug, d.replacement)}</>}
          {typeof d.url === "string" && <> · found at {d.url}</>}
        </>
      );
    case "key.decoy_used":
      return (
        <>
          Refused as an unknown key ({String(d.route)}); the place it was kept has leaked
          {typeof d.url === "string" && <> · found at {d.url}</>}
          {entry.count > 1 && <> · {entry.count} uses in the same hour (UTC); the first is shown</>}
        </>
      );
    case "key.restricted":
      return <AccessChange before={d.before} after={d.after} />;
    case "team.chain_started":
      return <>Earlier changes to these keys are in the account&apos;s own log, which this one continues</>;
    case "team.created":
      return (
        <>
          “<bdi>{String(d.name)}</bdi>” at /dashboard/{String(d.slug)}
        </>
      );
    case "team.deleted":
      return <>{d.revoked_keys === 1 ? "1 key revoked" : `${String(d.revoked_keys)} keys revoked`}</>;
    case "team.member_added":
      return (
        <>
          <bdi>{String(d.email)}</bdi> as {String(d.role)}
          {d.via === "invitation" && ", accepting an invitation"}
        </>
      );
    case "team.invitation_sent":
    case "team.invitation_resent":
    case "team.invitation_revoked":
      return (
        <>
          To <bdi>{String(d.email)}</bdi> as {String(d.role)}
        </>
      );
    case "team.role_changed":
      return (
        <>
          <bdi>{String(d.email)}</bdi>: {String(d.from)} → {String(d.to)}
        </>
      );
    case "team.member_removed":
      return (
        <>
          <bdi>{String(d.email)}</bdi> {`(${String(d.role)}) ${d.left ? "left" : "was removed"}; `}
          {d.revoked_keys === 1 ? "1 key of theirs revoked" : `${String(d.revoked_keys)} keys of theirs revoked`}
          {typeof d.transferred_keys === "number" &&
            d.transferred_keys > 0 &&
            `, ${d.transferred_keys === 1 ? "1 handed" : `${d.transferred_keys} handed`} to a service account`}
        </>
      );
    case "team.service_account_created":
      return (
        <>
          “<bdi>{String(serviceAccountName(d.service_account))}</bdi>”
        </>
      );
    case "key.transferred":
      return (
        <>
          From <bdi>{String(d.from_email ?? "a former member")}</bdi> to the service account “
          <bdi>{String(serviceAccountName(d.service_account))}</bdi>”;{" "}
          {d.rotated ? (
            <>rotated: replaced by {keyLink(slug, d.replacement)}</>
          ) : (
            "not rotated: its secret is unchanged"
          )}
        </>
      );
    case "auth.sessions_ended":
      return <>{d.count === 1 ? "1 session" : `${String(d.count)} sessions`} ended from this device</>;
    default:
      return null;
  }
}

/** A service account as an activity row names it: { id, name }. */
const serviceAccountName = (value: unknown) =>
  value && typeof value === "object" && "name" in value ? (value as { name: unknown }).name : "?";

/**
 * "“old” → “new”", each name isolated: a right-to-left name would otherwise take the arrow and quotes into its run,
 * and the change would read backwards (attack review of team chains).
 */
function Change({ from, to }: { from: unknown; to: unknown }) {
  return (
    <>
      “<bdi>{String(from)}</bdi>” → “<bdi>{String(to)}</bdi>”
    </>
  );
}

const ACCESS_PARTS = [
  ["scopes", "Scopes"],
  ["allowed_ips", "IP allowlist"],
  ["rate_limit_per_minute", "Rate limit"],
] as const;

/** One audit value (describeRestrictions' JSON) as text. */
function accessText(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.join(", ");
  return String(value);
}

/** Only what changed, as "before → after", one part per line. */
function AccessChange({ before, after }: { before: unknown; after: unknown }) {
  const from = (before ?? {}) as Record<string, unknown>;
  const to = (after ?? {}) as Record<string, unknown>;
  const changed = ACCESS_PARTS.filter(([name]) => accessText(from[name]) !== accessText(to[name]));
  return (
    <>
      {changed.map(([name, text], index) => (
        <span key={name}>
          {index > 0 && "; "}
          {text}: {accessText(from[name])} → {accessText(to[name])}
        </span>
      ))}
    </>
  );
}

/**
 * Who made a change, in a team's log: a member by their address, the
 * operator, or a report (said below). A team's chain says which (actorKind);
 * a row from before team chains is told by its browser.
 */
function actorText(entry: ActivityEntry): string | null {
  const kind = actorKindOf(entry);
  if (kind === "report" || kind === "keyport") return null;
  if (kind === "operator") return "By an operator, with the command line";
  return entry.actorEmail ? `By ${entry.actorEmail}` : "By a former member";
}

/**
 * A team chain's row says who acted, and only that counts: a browser can send any User-Agent (an attack review
 * sent "secret-scanning" to pass a rename off as a report). Rows from before team chains are told by theirs.
 */
function actorKindOf(entry: ActivityEntry): string {
  if (entry.actorKind) return entry.actorKind;
  if (REPORTERS[entry.userAgent ?? ""]) return "report";
  return entry.userAgent === OPERATOR_USER_AGENT ? "operator" : "person";
}

/** The origin line: a report's source, or where the change came from (for those shown it). */
function originText(entry: ActivityEntry, showOrigin: boolean): string | null {
  const kind = actorKindOf(entry);
  if (kind === "report") return REPORTERS[entry.userAgent ?? ""] ?? "By Keyport, on a leak report";
  // The command line has no address or browser: its actor line says where it came from.
  if (kind === "operator") return null;
  return showOrigin ? `From ${displayIp(entry.ip)} · ${describeUserAgent(entry.userAgent)}` : null;
}

/** The key and the details, "·" between them only when there are both (a revocation without a reason has none). */
function ActivityLine({ slug, entry }: { slug: string; entry: ActivityEntry }) {
  const key = entry.keyId ? keyLink(slug, entry.keyId) : null;
  const details = Details({ slug, entry });
  if (!key && !details) return null;
  return (
    <p className="wrap-anywhere">
      {key}
      {key && details && " · "}
      {details}
    </p>
  );
}

export function ActivityList({
  slug,
  entries,
  now = new Date(),
  showActor = false,
  showOrigin = true,
}: {
  /** The team's slug, for the links to its keys. */
  slug: string;
  entries: ActivityEntry[];
  now?: Date;
  /** In a team with members: say who made each change. */
  showActor?: boolean;
  /** Where each change came from (address and browser): for the person themselves, and a team's admins and owners. */
  showOrigin?: boolean;
}) {
  return (
    <ol className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
      {entries.map((entry) => (
        <li key={entry.id} data-testid="activity-row" className="flex flex-col gap-1 px-4 py-3 text-sm">
          <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
            <span className="font-semibold">{activityText(entry.action)}</span>
            <Timestamp date={entry.createdAt} now={now} className="text-xs" />
          </div>
          <ActivityLine slug={slug} entry={entry} />
          <p className="text-xs break-words text-zinc-600 dark:text-zinc-400">
            {[
              // The operator is named even in a personal team: the person did not make that change.
              showActor || actorKindOf(entry) === "operator" ? actorText(entry) : null,
              originText(entry, showOrigin),
            ]
              .filter(Boolean)
              .join(" · ")}
          </p>
        </li>
      ))}
    </ol>
  );
}
