import type { Metadata } from "next";
import Link from "next/link";
import { API_KEY_PATTERN } from "@/lib/keys/format";

export const metadata: Metadata = { title: "Managing keys" };

export default function ManagingKeysPage() {
  return (
    <article className="max-w-3xl [&_h2]:mt-10 [&_h2]:text-xl [&_h2]:font-semibold [&_li]:mt-2 [&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:mt-4 [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:pl-6">
      <h1 className="text-3xl font-bold">Managing keys</h1>
      <h2 id="environments">Development and production keys</h2>
      <p>
        Every key belongs to one environment: development keys begin with <code>sk_dev_</code>, production keys with{" "}
        <code>sk_prod_</code>. What one environment creates, the other cannot see. Use a development key while you build
        and a separate production key in production. Every key matches <code>{API_KEY_PATTERN.source}</code>; its last
        six characters are a checksum, so a mistyped key is refused without a lookup.
      </p>
      <h2 id="labels-and-expiry">Labels and expiry</h2>
      <p>
        Label each key after what uses it. A key can expire after 30 or 90 days, on a date you pick, or never. You can
        hold up to 100 active keys.
      </p>
      <h2 id="rotation">Rotation with a grace period</h2>
      <p>
        Rotating a key creates a new one with the same label, environment and expiry, and lets the old one work for a
        grace period you choose: none, 1 hour, 24 hours or 7 days. The key list shows the old key as “expiring after
        rotation” with its last use, so you can see when your systems have moved over.
      </p>
      <ol>
        <li>Rotate the key in the dashboard with a grace period long enough for a deploy.</li>
        <li>Put the new key in your server’s environment variable and deploy.</li>
        <li>Watch the old key’s “last used” time stop moving, then let the grace period end (or revoke it).</li>
      </ol>
      <h2 id="revocation">Revocation</h2>
      <p>
        Revoking a key switches it off on the very next request, on every server. It cannot be undone; the key stays in
        your list, greyed, for the record.
      </p>
      <h2 id="leaked-key-checklist">Leaked-key checklist</h2>
      <ol>
        <li>
          In the <Link href="/dashboard">dashboard</Link>, press <strong>This key leaked</strong> on the key. It is
          revoked at once, with no grace period, and its replacement is shown once.
        </li>
        <li>Put the replacement in your server’s environment variable and deploy.</li>
        <li>Check the leaked key’s last use in the key list: any use after the leak was not you.</li>
        <li>
          Review the <Link href="/dashboard/activity">activity log</Link> for changes you did not make.
        </li>
        <li>Remove the key from wherever it leaked (a repository’s history, a log, a ticket).</li>
      </ol>
    </article>
  );
}
