import type { Metadata } from "next";
import Link from "next/link";
import { TeamPolicyForm } from "@/components/teams/team-policy-form";
import { restrictionOptions } from "@/lib/keys/restriction-options";
import { accessSummary } from "@/lib/keys/restrictions";
import { routesByScope } from "@/lib/public-api/routes";
import { Timestamp } from "@/components/ui/timestamp";
import { PRODUCTION_KEY_RULE_TEXT, type TeamPolicy } from "@/lib/teams/policies";
import { keysOutlivingPolicy, readTeamPolicy } from "@/lib/teams/policy-store";
import { can } from "@/lib/teams/roles";
import { requireTeamPage } from "@/lib/web/team-guard";
import { keyPath, settingsPath } from "@/lib/web/team-paths";

export const metadata: Metadata = { title: "Team settings" };

const lifetime = (days: number | null) => (days === null ? "no maximum" : `at most ${days} days`);

/** The policies in words, for members who may read them but not change them. */
function PolicySummary({ policy }: { policy: TeamPolicy }) {
  return (
    <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-[max-content_1fr] sm:gap-x-6">
      <dt className="font-medium">Production keys</dt>
      <dd className="text-zinc-700 dark:text-zinc-300">
        {PRODUCTION_KEY_RULE_TEXT[policy.productionKeys].label}:{" "}
        {PRODUCTION_KEY_RULE_TEXT[policy.productionKeys].sentence}
      </dd>
      <dt className="font-medium">Production key lifetime</dt>
      <dd className="text-zinc-700 dark:text-zinc-300">{lifetime(policy.maxLifetimeDays.prod)}</dd>
      <dt className="font-medium">Development key lifetime</dt>
      <dd className="text-zinc-700 dark:text-zinc-300">{lifetime(policy.maxLifetimeDays.dev)}</dd>
      <dt className="font-medium">New production keys start with</dt>
      <dd className="text-zinc-700 dark:text-zinc-300">
        {accessSummary({ ...policy.productionDefaults, rateLimit: null }) ?? "every scope, from any address"}
        {policy.productionDefaults.scopes !== "all" || policy.productionDefaults.allowedIps
          ? ", and developers keep within it"
          : ""}
      </dd>
      <dt className="font-medium">Two-factor sign-in</dt>
      <dd className="text-zinc-700 dark:text-zinc-300">
        {policy.requireTwoFactor ? "required of every member" : "not required"}
      </dd>
    </dl>
  );
}

// GET /dashboard/[team]/settings: the team's policies (lib/teams/policies.ts).
// Admins and owners change them; every member may read them here, and sees
// each one beside the control it limits. The keys that live longer than the
// maximum now allows are listed, never shortened.
export default async function TeamSettingsPage({ params }: { params: Promise<{ team: string }> }) {
  const { team: slug } = await params;
  const { member } = await requireTeamPage(slug, settingsPath(slug));
  const policy = await readTeamPolicy(member.team.id);
  const mayChange = can(member.role, "team.policies");
  const now = new Date();
  const outliving = mayChange ? await keysOutlivingPolicy(member.team.id, policy, now) : [];
  const anyMaximum = policy.maxLifetimeDays.prod !== null || policy.maxLifetimeDays.dev !== null;

  return (
    <>
      <h1 className="text-2xl font-bold break-words" tabIndex={-1}>
        Settings of {member.team.name}
      </h1>
      <section aria-labelledby="policies-heading" className="mt-6">
        <h2 id="policies-heading" className="text-lg font-semibold">
          Policies
        </h2>
        {mayChange ? (
          <>
            <p className="mt-2 mb-4 text-sm text-zinc-700 dark:text-zinc-300">
              Each change is recorded in the team&apos;s activity. Members see a policy beside the control it limits.
            </p>
            <TeamPolicyForm
              team={member.team.slug}
              policy={policy}
              options={restrictionOptions(routesByScope())}
              personal={member.team.personal}
            />
          </>
        ) : (
          <>
            <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
              Admins and owners set these. You are {member.role === "admin" || member.role === "owner" ? "an" : "a"}{" "}
              <strong>{member.role}</strong> of this team.
            </p>
            <PolicySummary policy={policy} />
          </>
        )}
      </section>
      {mayChange && (
        <section aria-labelledby="outliving-heading" className="mt-10">
          <h2 id="outliving-heading" className="text-lg font-semibold">
            Keys that outlive the maximum lifetime
          </h2>
          {!anyMaximum ? (
            <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
              The team sets no maximum lifetime, so no key outlives one.
            </p>
          ) : outliving.length === 0 ? (
            <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
              None: every key in use expires within the team&apos;s maximum.
            </p>
          ) : (
            <>
              <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
                These keys were made before the policy, or by the operator overriding it. They keep working until their
                own expiry: rotate them to give them one within the maximum, or revoke those no longer used.
              </p>
              <ul
                className="mt-3 divide-y divide-zinc-200 rounded-md border border-zinc-200 text-sm dark:divide-zinc-800 dark:border-zinc-800"
                data-testid="outliving-keys"
              >
                {outliving.map((key) => (
                  <li key={key.id} className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-3">
                    <Link href={keyPath(member.team.slug, key.id)} className="min-w-0 font-medium break-all">
                      {key.label}
                    </Link>
                    <span className="text-zinc-700 dark:text-zinc-300">
                      {key.environment === "prod" ? "Production" : "Development"} ·{" "}
                      {key.expiresAt ? (
                        <>
                          expires <Timestamp date={key.expiresAt} now={now} />
                        </>
                      ) : (
                        "never expires"
                      )}
                    </span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      )}
    </>
  );
}
