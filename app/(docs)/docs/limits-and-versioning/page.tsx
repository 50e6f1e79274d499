import type { Metadata } from "next";
import Link from "next/link";
import { DocsArticle } from "@/components/docs/docs-article";
import { Table, Td, Th, THead } from "@/components/ui/table";
import { envDefaults, rateLimits } from "@/lib/env-schema";

export const metadata: Metadata = { title: "Limits and versioning" };

const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`;

export default function LimitsAndVersioningPage() {
  const defaults = envDefaults();
  const [devLimits, prodLimits] = [rateLimits(defaults, "dev"), rateLimits(defaults, "prod")];
  return (
    <DocsArticle
      href="/docs/limits-and-versioning"
      title="Limits and versioning"
      lead={<p>What the API lets one key do, and what its version names promise.</p>}
      sections={[
        {
          id: "rate-limits",
          title: "Rate limits",
          content: (
            <>
              <p>
                Each key may make a number of requests per minute, counted in fixed one-minute windows, and all of an
                account&apos;s keys of one environment together have a limit of their own, so keys in a rotation&apos;s
                grace period add no capacity. With several servers the counts are shared (in Redis or PostgreSQL), so
                the limits hold however requests are spread; the single-server SQLite default counts in memory. The
                defaults (an operator may change them):
              </p>
              <Table caption="Requests per minute">
                <THead>
                  <tr>
                    <Th>Key</Th>
                    <Th>Per key</Th>
                    <Th>All of an account&apos;s keys of the environment</Th>
                  </tr>
                </THead>
                <tbody>
                  <tr>
                    <Td>
                      <code>sk_dev_…</code>
                    </Td>
                    <Td>{devLimits.perKey}</Td>
                    <Td>{devLimits.account}</Td>
                  </tr>
                  <tr>
                    <Td>
                      <code>sk_prod_…</code>
                    </Td>
                    <Td>{prodLimits.perKey}</Td>
                    <Td>{prodLimits.account}</Td>
                  </tr>
                </tbody>
              </Table>
              <p>
                Every response to an accepted key says where you stand (unless the operator chose to let requests
                through while the counter store is down, when the headers are left out):
              </p>
              <ul>
                <li>
                  <code>RateLimit-Limit</code>: the requests allowed in a window, by whichever of the two limits has
                  fewer requests left.
                </li>
                <li>
                  <code>RateLimit-Remaining</code>: what is left in this window.
                </li>
                <li>
                  <code>RateLimit-Reset</code>: seconds until the window resets.
                </li>
              </ul>
              <p>
                Over the limit, the answer is <Link href="/docs/errors#rate_limited">429 rate_limited</Link> with{" "}
                <code>Retry-After</code> in seconds: wait that long, then retry. Spread batch work out rather than
                retrying in a tight loop.
              </p>
              <p>
                A key can also have a <Link href="/docs/restricted-keys#rate-limit">lower limit of its own</Link>, so
                one integration cannot use up the account&apos;s allowance.
              </p>
            </>
          ),
        },
        {
          id: "storage",
          title: "Files: quota, retention, uploads at once",
          content: (
            <ul>
              <li>
                An account may keep {mib(defaults.FILES_QUOTA_BYTES)} of uploaded files, its development and production
                keys together. An upload that would pass it is{" "}
                <Link href="/docs/errors#storage_quota_exceeded">413 storage_quota_exceeded</Link>, refused before it is
                stored.
              </li>
              <li>
                Files are kept {defaults.FILES_RETENTION_DAYS} days, then deleted, which frees their space; finished
                generations are kept {defaults.GENERATION_RETENTION_DAYS} days.
              </li>
              <li>
                One key may have {defaults.UPLOADS_PER_KEY} uploads in progress at once on a server; another is{" "}
                <Link href="/docs/errors#rate_limited">429 rate_limited</Link> with <code>Retry-After: 1</code>.
              </li>
            </ul>
          ),
        },
        {
          id: "body-limits",
          title: "Body limits",
          content: (
            <>
              <Table caption="Request body limits">
                <THead>
                  <tr>
                    <Th>Body</Th>
                    <Th>Limit</Th>
                  </tr>
                </THead>
                <tbody>
                  <tr>
                    <Td>JSON</Td>
                    <Td>{mib(defaults.BODY_LIMIT_JSON_BYTES)}</Td>
                  </tr>
                  <tr>
                    <Td>
                      File upload (<code>multipart/form-data</code>)
                    </Td>
                    <Td>{mib(defaults.BODY_LIMIT_UPLOAD_BYTES)}</Td>
                  </tr>
                </tbody>
              </Table>
              <p>
                A larger body is refused with <Link href="/docs/errors#payload_too_large">413 payload_too_large</Link>{" "}
                before it is stored; the API reads no further than the limit.
              </p>
            </>
          ),
        },
        {
          id: "versions",
          title: "What v1 and v1beta mean",
          content: (
            <>
              <p>
                The version is the first segment after <code>/api</code>. <code>v1</code> is the stable API: a field or
                route is not removed or changed in meaning within <code>v1</code>; new optional fields and new routes
                may appear, so ignore fields you do not know. <code>v1beta</code> holds the Gemini-style routes at the
                path Google&apos;s client libraries call; it follows that format and may change with it.
              </p>
              <p>
                Not published yet: the lifecycle states a route can be in, change events, and a deprecation policy
                (notice periods and sunset headers). Until they are, a breaking change comes as a new version, never
                within <code>v1</code>.
              </p>
            </>
          ),
        },
      ]}
    />
  );
}
