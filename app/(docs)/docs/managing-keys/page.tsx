import type { Metadata } from "next";
import Link from "next/link";
import { DocsArticle } from "@/components/docs/docs-article";
import { envDefaults } from "@/lib/env-schema";
import { ACTIVE_KEY_CAP } from "@/lib/keys/lifecycle";
import { DEFAULT_LOG_PER_KEY_PER_MINUTE } from "@/lib/usage/buffer";
import { USAGE_AGGREGATE_RETENTION_DAYS } from "@/lib/maintenance/prune";
import { USER_AGENT_MAX_LENGTH } from "@/lib/usage/event";

export const metadata: Metadata = { title: "Managing keys" };

export default function ManagingKeysPage() {
  const usageRetentionDays = envDefaults().USAGE_RETENTION_DAYS;
  return (
    <DocsArticle
      href="/docs/managing-keys"
      title="Managing keys"
      lead={
        <p>
          Keys are created, labelled, rotated and revoked in the <Link href="/dashboard">dashboard</Link>. Keyport keeps
          only a hash of each key: the full key is shown once, when it is created, and never again.
        </p>
      }
      sections={[
        {
          id: "environments",
          title: "Development and production keys",
          content: (
            <p>
              Every key belongs to one environment: development keys begin with <code>sk_dev_</code>, production keys
              with <code>sk_prod_</code>. Files and generations made with one environment&apos;s keys are invisible to
              the other&apos;s. Use development keys on your laptop and in CI, and separate production keys in
              production, so a leaked laptop key cannot touch production data. Development keys have a lower{" "}
              <Link href="/docs/limits-and-versioning#rate-limits">rate limit</Link>.
            </p>
          ),
        },
        {
          id: "labels-and-expiry",
          title: "Labels and expiry",
          content: (
            <p>
              Label each key after what uses it (&ldquo;billing worker, eu-west&rdquo;), so the list tells you what
              breaks if you revoke it; you can rename a key at any time. A key can expire after 30 or 90 days, on a date
              you pick, or never. New production keys{" "}
              <Link href="/docs/restricted-keys#expiry">expire after 90 days</Link> unless you choose otherwise;
              development keys default to never. You can hold up to {ACTIVE_KEY_CAP} keys in use (a rotated key counts
              until its grace period ends); rotating and reporting a leak work at the limit too. The key list&apos;s
              search finds a key by part of its label, its id (<code>key_…</code>) or the part of its secret the list
              shows (<code>sk_dev_Ab3x…9fQz</code>), together with the filters; never paste a whole key there.
            </p>
          ),
        },
        {
          id: "restrictions",
          title: "Restrictions",
          content: (
            <p>
              A key can hold only some <Link href="/docs/restricted-keys#scopes">scopes</Link> (All, Read only, or a set
              you choose), work only from an <Link href="/docs/restricted-keys#ip-allowlist">IP allowlist</Link>, and
              have a <Link href="/docs/restricted-keys#rate-limit">rate limit</Link> below its environment&apos;s. Set
              them when you create the key and change them on its page; a change holds from the next request. Give each
              key only what its integration needs: see <Link href="/docs/restricted-keys">Restricted keys</Link>.
            </p>
          ),
        },
        {
          id: "fresh-sign-in",
          title: "A fresh sign-in for production keys",
          content: (
            <p>
              Creating a production key, and rotating, revoking, reporting leaked or changing the access of one, needs a
              sign-in from the last 10 minutes. If yours is older, the dashboard asks for your password (or a code from
              your two-factor app) in a dialog, then carries on with the change you asked for: nothing you chose is
              lost. Development keys never ask. Turn on two-factor sign-in on your account page, so a stolen password
              alone cannot reach your production keys.
            </p>
          ),
        },
        {
          id: "rotation",
          title: "Rotation with a grace period",
          content: (
            <>
              <p>
                Rotating a key creates a new one with the same label, environment, expiry and{" "}
                <Link href="/docs/restricted-keys">restrictions</Link>, and lets the old one work for a grace period you
                choose: none, 1 hour, 24 hours or 7 days (never past its own expiry). The key list shows the old key as
                &ldquo;expiring after rotation&rdquo;, with its last use.
              </p>
              <h3 id="zero-downtime-rotation">A zero-downtime rotation</h3>
              <ol>
                <li>
                  Rotate the key in the dashboard with a grace period longer than a deploy takes. Copy the new key.
                </li>
                <li>
                  Put the new key in your secret store or your servers&apos; environment variable (for example{" "}
                  <code>KEYPORT_API_KEY</code>) and deploy. While the deploy rolls out, old and new instances both work:
                  both keys are valid.
                </li>
                <li>
                  Watch the old key&apos;s <em>last used</em> time stop moving (it is updated at most once a minute), or
                  the <a href="#usage-on-the-key-page">rotation meter</a> on its page fall to 0%.
                </li>
                <li>Revoke the old key, or let the grace period end.</li>
              </ol>
            </>
          ),
        },
        {
          id: "revocation",
          title: "Revocation",
          content: (
            <p>
              Revoking a key switches it off on the very next request, on every server: the dashboard says
              &ldquo;Revoked&rdquo; only once every server has confirmed it dropped the key from its cache (or, for a
              server that did not answer, once it has surely stopped trusting its cache), so there is nothing to wait
              out. Where several servers share a PostgreSQL database, the message says how many confirmed. It cannot be
              undone; the key stays in your list, greyed, and the reason you gave is kept in the activity log. A request
              with it gets <Link href="/docs/errors#revoked_api_key">401 revoked_api_key</Link>.
            </p>
          ),
        },
        {
          id: "activity",
          title: "The activity log",
          content: (
            <p>
              Every change to a team&apos;s keys and members is an entry in its activity log, in words (&ldquo;Key
              rotated&rdquo;, &ldquo;Member removed&rdquo;), newest first, with who made it; admins and owners also see
              the address and browser it came from. Filter it by kind of event and by key, and download what you see as
              CSV for a spreadsheet. Admins and owners can also download the whole log as JSON with each entry&apos;s
              hash, which an operator checks to prove nothing was changed afterwards. Your own sign-ins, password and
              two-factor changes are on your account page.
            </p>
          ),
        },
        {
          id: "usage",
          title: "Usage",
          content: (
            <>
              <p>
                Every request made with one of your keys is recorded, whatever its answer: a success, an error, a
                refusal, and a request with a key that was already revoked or expired. For each request Keyport keeps
                the key, the route, the status (and the <Link href="/docs/errors">error code</Link> of an error), how
                long it took, the client IP as Keyport sees it (the address the{" "}
                <Link href="/docs/restricted-keys#ip-allowlist">IP allowlist</Link> checks), the user agent cut to{" "}
                {USER_AGENT_MAX_LENGTH} characters (anything shaped like a Keyport key in it is replaced by{" "}
                <code>sk_…_[redacted]</code>), the request id (the answer&apos;s <code>X-Request-Id</code>) and the
                time. A request whose key Keyport could not find (none, a malformed one, or one that does not exist)
                belongs to no key, so it is on no key&apos;s page.
              </p>
              <p>
                Never recorded: the key itself, the value of any header other than the user agent, and request or
                response bodies.
              </p>
              <p>
                The request log is kept for {usageRetentionDays} days (an operator can change this with{" "}
                <code>USAGE_RETENTION_DAYS</code>); hourly counts per key, route and status class are kept for{" "}
                {USAGE_AGGREGATE_RETENTION_DAYS} days, so the charts reach further back than the log. The log keeps at
                most {DEFAULT_LOG_PER_KEY_PER_MINUTE} requests per key per minute on each server; past that a request
                still counts in the charts and totals, but has no row of its own, so a flood (a revoked key tried again
                and again) cannot bury the rest.
              </p>
              <h3 id="usage-on-the-key-page">On the key&apos;s page</h3>
              <ul>
                <li>
                  <strong>Charts</strong> of the key&apos;s requests over the last 24 hours, 7 days or 30 days, stacked
                  by status class, each with its data table, and the key&apos;s top routes and client IPs.
                </li>
                <li>
                  <strong>The request log</strong>: every request with its time, route, status, IP, user agent and
                  request id, filtered by status class or route. Quote the request id when you ask for support.{" "}
                  <strong>Download CSV</strong> exports it; a cell that begins with <code>=</code>, <code>+</code>,{" "}
                  <code>-</code> or <code>@</code> (or a tab or carriage return) gets a leading <code>&apos;</code>, so
                  a spreadsheet shows a user agent such as <code>=HYPERLINK(…)</code> as text rather than running it.
                </li>
                <li>
                  <strong>Used after it was revoked</strong>: when a revoked or expired key is still being tried, its
                  page and the key list say so (&ldquo;Used 3 times after it was revoked, last from 203.0.113.7
                  at&nbsp;…&rdquo;). The requests were refused, but whoever sent them still holds the key: the request
                  log shows from where.
                </li>
                <li>
                  <strong>Rotation progress</strong>: while a rotated key&apos;s grace period runs, a meter shows how
                  much of the last hour&apos;s traffic (old and new key together) still uses the old key, and which
                  addresses and user agents still send it, so you know when retiring the old key breaks nothing.
                </li>
              </ul>
              <p>
                If you run Keyport yourself, the operator command line prints a key&apos;s counts (by status class,
                route and IP, and its requests after revocation):{" "}
                <code>npm run -s admin -- key:usage --id key_… --since 7d</code> (<code>24h</code>, <code>7d</code> or{" "}
                <code>30d</code>).
              </p>
            </>
          ),
        },
        {
          id: "leaked-key-checklist",
          title: "Leaked-key checklist",
          content: (
            <ol>
              <li>
                In the <Link href="/dashboard">dashboard</Link>, open the key&apos;s menu (or its page) and choose{" "}
                <strong>This key leaked</strong>. It is revoked at once, with no grace period, and its replacement (with
                the same restrictions) is shown once. (If the key was already being rotated, it is revoked and the
                replacement you already have stays: deploy that one.)
              </li>
              <li>Put the replacement in your servers&apos; environment variable and deploy.</li>
              <li>
                Check where the key was used: the key&apos;s page lists every request with its IP in its{" "}
                <a href="#usage-on-the-key-page">request log</a>. Any use after the leak was not you, and use after the
                revocation shows as <em>used after it was revoked</em>.
              </li>
              <li>
                Review the <Link href="/dashboard/activity">activity log</Link> for changes you did not make.
              </li>
              <li>Remove the key from wherever it leaked (a repository&apos;s history, a log, a ticket).</li>
            </ol>
          ),
        },
      ]}
    />
  );
}
