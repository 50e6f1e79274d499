import type { Metadata } from "next";
import Link from "next/link";
import { DocsArticle } from "@/components/docs/docs-article";
import { ACTIVE_KEY_CAP } from "@/lib/keys/lifecycle";

export const metadata: Metadata = { title: "Managing keys" };

export default function ManagingKeysPage() {
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
              until its grace period ends); rotating and reporting a leak work at the limit too.
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
                  Watch the old key&apos;s <em>last used</em> time stop moving (it is updated at most once a minute).
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
              Revoking a key switches it off on the very next request, on every server: there is no cache to wait out.
              It cannot be undone; the key stays in your list, greyed, and the reason you gave is kept in the activity
              log. A request with it gets <Link href="/docs/errors#revoked_api_key">401 revoked_api_key</Link>.
            </p>
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
                Check the leaked key&apos;s last use (time and IP) on its page: any use after the leak was not you.
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
