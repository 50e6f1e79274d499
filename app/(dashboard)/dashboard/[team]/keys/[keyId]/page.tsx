import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ActivityList } from "@/components/activity/activity-list";
import { KeyAccess } from "@/components/keys/key-access";
import { KeyActionButtons } from "@/components/keys/key-buttons";
import { DecoyBadge, EnvironmentBadge, ServiceAccountLine, StatusBadge } from "@/components/keys/key-badges";
import { KeyFacts } from "@/components/keys/key-facts";
import { RenameKey } from "@/components/keys/rename-key";
import { activityShown } from "@/lib/teams/membership";
import { requireTeamPage } from "@/lib/web/team-guard";
import { canManageKey } from "@/lib/teams/roles";
import { mayReplaceKey, outlivesPolicy, PRODUCTION_KEY_RULE_TEXT } from "@/lib/teams/policies";
import { readTeamPolicy } from "@/lib/teams/policy-store";
import { activityPath, keyPath, teamPath } from "@/lib/web/team-paths";
import { keyIdSchema } from "@/lib/keys/key.schema";
import { getKey, listActivity } from "@/lib/keys/queries";
import { restrictionOptions } from "@/lib/keys/restriction-options";
import { isUsable } from "@/lib/keys/status";
import { KeyUsageSection } from "@/components/usage/key-usage-section";
import { getKeyUsage, listRequests } from "@/lib/usage/queries";
import { keyUsagePageQuerySchema } from "@/lib/usage/usage-query.schema";
import { RotationMeter } from "@/components/usage/rotation-meter";
import { ScopeSuggestion } from "@/components/usage/scope-suggestion";
import { AfterEndNotice } from "@/components/usage/after-end-notice";
import { keySignals } from "@/lib/usage/signals";
import { routeScopes, routesByScope } from "@/lib/public-api/routes";

export const metadata: Metadata = { title: "API key" };

const RECENT_ACTIVITY = 10;

// GET /dashboard/[team]/keys/[keyId]: one key, what it may do, its rotation chain,
// its usage and its activity.
export default async function KeyPage({
  params,
  searchParams,
}: {
  params: Promise<{ team: string; keyId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { team: slug, keyId } = await params;
  const { member } = await requireTeamPage(slug, `${teamPath(slug)}/keys/${encodeURIComponent(keyId)}`);
  const teamId = member.team.id;
  const parsed = keyIdSchema.safeParse(keyId);
  if (!parsed.success) notFound();
  const now = new Date();
  const key = await getKey(teamId, parsed.data, now);
  if (!key) notFound();
  const activity = await listActivity(member.team, { keyId: key.id, pageSize: RECENT_ACTIVITY });
  // Usage: the range, the log's filters and page come from the query string, so every control is a link or a GET form.
  const usageQuery = keyUsagePageQuerySchema.parse(await searchParams);
  const [usage, requestLog] = await Promise.all([
    getKeyUsage(teamId, key.id, usageQuery.usage, now),
    listRequests(
      teamId,
      key.id,
      {
        range: usageQuery.usage,
        filter: { statusClass: usageQuery.status, route: usageQuery.route },
        page: usageQuery.page,
      },
      now,
    ),
  ]);
  const [signals, policy] = await Promise.all([keySignals(teamId, key, routeScopes(), now), readTeamPolicy(teamId)]);
  const owners = {
    environment: key.environment,
    userId: key.makerId,
    serviceAccountId: key.serviceAccount?.id ?? null,
  };
  const manageable = canManageKey(member, owners);
  const replaceable = mayReplaceKey(member, owners, policy.productionKeys);
  const target = { id: key.id, label: key.label, status: key.status, decoy: key.decoy, manageable, replaceable };

  return (
    <>
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href={teamPath(member.team.slug)} className="underline">
          API keys
        </Link>{" "}
        <span aria-hidden>/</span> <span className="font-mono break-all">{key.id}</span>
      </nav>
      <div className="mt-3 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 flex-col gap-2">
          {isUsable(key.status) && manageable ? (
            <RenameKey keyId={key.id} label={key.label} />
          ) : (
            <h1 className="text-2xl font-bold wrap-anywhere" tabIndex={-1}>
              {key.label}
            </h1>
          )}
          <div className="flex flex-wrap gap-2">
            <EnvironmentBadge environment={key.environment} />
            <DecoyBadge decoy={key.decoy} />
            <StatusBadge status={key.status} />
          </div>
          <ServiceAccountLine keyView={key} />
        </div>
        <KeyActionButtons target={target} />
      </div>
      {!manageable && (
        <p className="mt-4 text-sm text-zinc-700 dark:text-zinc-300" data-testid="role-note">
          Your role in this team ({member.role}) cannot change this key
          {key.environment === "prod" && member.role === "developer"
            ? key.serviceAccount
              ? ": it is a service account's production key"
              : ": it is a production key another member made"
            : ""}
          . You can still report it leaked.
        </p>
      )}
      {manageable && !replaceable && key.status === "active" && (
        <p className="mt-4 text-sm text-zinc-700 dark:text-zinc-300" data-testid="rotation-policy">
          This team&apos;s policy (production keys:{" "}
          {PRODUCTION_KEY_RULE_TEXT[policy.productionKeys].label.toLowerCase()}) lets only admins and owners rotate a
          production key, since a rotation makes a new secret. You can still revoke it, or report it leaked (which makes
          no replacement for you).
        </p>
      )}
      {key.status === "active" && !key.decoy && outlivesPolicy(policy, key, now) && (
        <p
          role="note"
          className="mt-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
          data-testid="outlives-policy"
        >
          This key lives longer than the team&apos;s maximum lifetime ({policy.maxLifetimeDays[key.environment]} days)
          allows for a new key. It keeps its {key.expiresAt ? "expiry" : "no expiry"}:{" "}
          {replaceable
            ? "rotate it to give its replacement one within the maximum."
            : "its maker or an admin of the team can rotate it to give its replacement one within the maximum."}
        </p>
      )}
      {signals.afterEnd && <AfterEndNotice keyView={key} use={signals.afterEnd} />}

      <div className="mt-8 grid gap-8 lg:grid-cols-3">
        <section aria-labelledby="details-heading" className="lg:col-span-2">
          <h2 id="details-heading" className="text-lg font-semibold">
            Details
          </h2>
          <KeyFacts keyView={key} now={now} />
        </section>
        <section aria-labelledby="rotation-heading">
          <h2 id="rotation-heading" className="text-lg font-semibold">
            Rotation
          </h2>
          <dl className="mt-3 flex flex-col gap-3 text-sm">
            <div>
              <dt className="font-medium">Replaces</dt>
              <dd>
                {key.predecessor ? <KeyLinkText slug={member.team.slug} link={key.predecessor} /> : "No earlier key."}
              </dd>
            </div>
            <div>
              <dt className="font-medium">Replaced by</dt>
              <dd>{key.successor ? <KeyLinkText slug={member.team.slug} link={key.successor} /> : "Not rotated."}</dd>
            </div>
          </dl>
          {signals.rotation && key.successor && (
            <RotationMeter
              slug={member.team.slug}
              target={target}
              successor={key.successor}
              progress={signals.rotation}
            />
          )}
        </section>
        <section aria-labelledby="access-heading" className="lg:col-span-2">
          <h2 id="access-heading" className="text-lg font-semibold">
            Access
          </h2>
          <KeyAccess
            keyId={key.id}
            label={key.label}
            environment={key.environment}
            restrictions={key.restrictions}
            rateLimitByOperator={key.rateLimitByOperator}
            options={restrictionOptions(routesByScope())}
            editable={isUsable(key.status) && manageable}
          />
          {isUsable(key.status) && manageable && (
            <ScopeSuggestion keyId={key.id} label={key.label} suggested={signals.suggestedScopes ?? []} />
          )}
        </section>
      </div>

      {usage && requestLog && (
        <KeyUsageSection
          keyHref={keyPath(member.team.slug, key.id)}
          usage={usage}
          log={requestLog}
          query={usageQuery}
          now={now}
        />
      )}

      <section aria-labelledby="activity-heading" className="mt-10">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="activity-heading" className="text-lg font-semibold">
            Activity
          </h2>
          {activity.total > RECENT_ACTIVITY && (
            <Link href={`${activityPath(member.team.slug)}?key=${key.id}`}>All {activity.total} entries</Link>
          )}
        </div>
        <div className="mt-3">
          {activity.total === 0 ? (
            <p className="rounded-md border border-dashed border-zinc-300 p-6 dark:border-zinc-700">No activity yet.</p>
          ) : (
            <ActivityList slug={member.team.slug} {...activityShown(member)} entries={activity.items} now={now} />
          )}
        </div>
      </section>
    </>
  );
}

function KeyLinkText({ slug, link }: { slug: string; link: { id: string; label: string } }) {
  return (
    <Link href={keyPath(slug, link.id)} className="break-all">
      “{link.label}” <span className="font-mono">{link.id}</span>
    </Link>
  );
}
