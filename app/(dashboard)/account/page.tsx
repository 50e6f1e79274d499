import type { Metadata } from "next";
import Link from "next/link";
import { ChangePasswordForm } from "@/components/account/change-password-form";
import { EndOtherSessionsButton, EndSessionButton } from "@/components/account/session-buttons";
import { Badge } from "@/components/ui/badge";
import { Timestamp } from "@/components/ui/timestamp";
import { ActivityList } from "@/components/activity/activity-list";
import { Pagination } from "@/components/pagination";
import { listAccountActivity } from "@/lib/keys/queries";
import { pageQuerySchema } from "@/lib/keys/filter.schema";
import { personalTeamOf } from "@/lib/teams/membership";
import { requirePageSession } from "@/lib/web/guard";
import { listSessions } from "@/lib/auth/session-store";
import { RECOVERY_CODES_LOW, twoFactorView } from "@/lib/auth/two-factor/enrolment";
import { FewRecoveryCodes } from "@/components/account/few-recovery-codes";
import { describeUserAgent } from "@/lib/auth/user-agent";
import { displayIp } from "@/lib/format-ip";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const current = await requirePageSession("/account");
  const { page: activityPage } = pageQuerySchema.parse(await searchParams);
  const activity = await listAccountActivity(current.userId, { page: activityPage });
  const { team: personal } = await personalTeamOf(current.userId);
  const sessions = await listSessions(current.userId);
  const twoFactor = await twoFactorView(current.userId, current.email);
  const twoFactorOn = twoFactor.enabled;
  const others = sessions.filter((session) => session.id !== current.id).length;
  const now = new Date();
  return (
    <>
      <h1 className="text-2xl font-bold" tabIndex={-1}>
        Account
      </h1>
      <p className="mt-2 break-words text-zinc-700 dark:text-zinc-300">Signed in as {current.email}.</p>
      <section aria-labelledby="password-heading" className="mt-8">
        <h2 id="password-heading" className="text-xl font-semibold">
          Password
        </h2>
        <p className="mt-1 mb-4 text-sm text-zinc-600 dark:text-zinc-400">
          Changing it signs out every other session, and we email you that it changed.
        </p>
        <ChangePasswordForm />
      </section>
      <section aria-labelledby="two-factor-heading" className="mt-8">
        <h2 id="two-factor-heading" className="text-xl font-semibold">
          Two-factor sign-in
        </h2>
        <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
          {twoFactorOn ? "On: signing in takes your password and a code from your app." : "Off."}{" "}
          <Link href="/account/two-factor" className="underline">
            {twoFactorOn ? "Manage two-factor sign-in" : "Set up two-factor sign-in"}
          </Link>
        </p>
        {twoFactorOn && twoFactor.recoveryCodesLeft <= RECOVERY_CODES_LOW && (
          <div className="mt-2">
            <FewRecoveryCodes left={twoFactor.recoveryCodesLeft} link />
          </div>
        )}
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
          Creating a production key, and rotating, revoking, reporting leaked or changing the access of one, needs a
          sign-in from the last 10 minutes, and so does turning two-factor sign-in on or off: if yours is older, Keyport
          asks for your password (or a code) first, then carries on with what you were doing.
        </p>
      </section>
      <section aria-labelledby="sessions-heading" className="mt-8">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <h2 id="sessions-heading" className="text-xl font-semibold">
            Active sessions
          </h2>
          {others > 0 && <EndOtherSessionsButton />}
        </div>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Sessions end after 7 days without use, and 30 days after sign-in at the latest. A browser whose session you
          end is told so when it next opens Keyport.
        </p>
        <ul className="mt-4 divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {sessions.map((session) => {
            const browser = describeUserAgent(session.userAgent);
            return (
              <li
                key={session.id}
                data-testid="session-row"
                className="flex flex-col gap-2 px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="flex min-w-0 flex-col gap-1">
                  <p className="font-medium">
                    {browser} {session.id === current.id && <Badge tone="success">This device</Badge>}
                  </p>
                  <p className="text-zinc-700 dark:text-zinc-300">From {displayIp(session.ip)}</p>
                  <p className="text-xs text-zinc-600 dark:text-zinc-400">
                    Signed in <Timestamp date={session.createdAt} now={now} />
                  </p>
                  <p className="text-xs text-zinc-600 dark:text-zinc-400">
                    Last seen <Timestamp date={session.lastSeenAt} now={now} />
                  </p>
                </div>
                {session.id !== current.id && <EndSessionButton sessionId={session.id} browser={browser} />}
              </li>
            );
          })}
        </ul>
      </section>
      <section aria-labelledby="activity-heading" className="mt-8">
        <h2 id="activity-heading" className="text-xl font-semibold">
          Account activity
        </h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Your sign-ins, sessions ended, and password and two-factor changes, newest first; changes to keys are in each
          team&apos;s activity. Each entry is chained to the one before it by a hash signed with a key only the service
          holds. {/* A download, not a page: a plain link, not Next's client-side navigation. */}
          <a href="/dashboard/activity/chain.json" download className="underline">
            Download your account&apos;s log with its hashes (JSON)
          </a>
          .
        </p>
        <div className="mt-4">
          {activity.total === 0 ? (
            <p className="rounded-md border border-dashed border-zinc-300 p-6 dark:border-zinc-700">No activity yet.</p>
          ) : (
            <ActivityList slug={personal.slug} entries={activity.items} now={now} />
          )}
        </div>
        <Pagination
          page={activity.page}
          pageCount={activity.pageCount}
          href={(page) => `/account?${new URLSearchParams({ page: String(page) })}#activity-heading`}
        />
      </section>
    </>
  );
}
