import type { Metadata } from "next";
import Link from "next/link";
import { CodeBlock } from "@/components/docs/code-block";
import { DocsArticle } from "@/components/docs/docs-article";
import { ScopeTable } from "@/components/docs/scope-table";
import { docsBaseUrl } from "@/lib/docs/base-url";
import { insufficientScopeExample, ipNotAllowedExample } from "@/lib/docs/error-examples";
import { envDefaults, rateLimits } from "@/lib/env-schema";
import { MAX_ALLOWLIST_ENTRIES } from "@/lib/keys/ip-allowlist";
import { DEFAULT_EXPIRY } from "@/lib/keys/expiry";
import { publicRoutes, type PublicRoute } from "@/lib/public-api/routes";
import { READ_ONLY_SCOPES, type Scope } from "@/lib/keys/scopes";

export const metadata: Metadata = { title: "Restricted keys" };

// Typed, so renaming a scope fails the build here instead of leaving a stale example.
const CUSTOM_SCOPES = ["catalog:read", "models:invoke"] satisfies Scope[];

const cliExamples = `# A production key for a billing worker: what it may call, from where, how fast
npm run -s admin -- key:create --email ops@example.com --env prod --label billing \\
  --scopes ${CUSTOM_SCOPES.join(",")} --allow-ip 203.0.113.0/24,2001:db8::/32 --rate-limit 30

# --scopes takes all (the default), read-only, or scopes separated by commas
npm run -s admin -- key:create --email ops@example.com --env dev --label dashboards --scopes read-only

# Change one key's restrictions; what is not named stays as it is
npm run -s admin -- key:update --id key_0123456789abcdef --scopes all
npm run -s admin -- key:update --id key_0123456789abcdef --allow-ip none        # any address again
npm run -s admin -- key:update --id key_0123456789abcdef --rate-limit default   # the environment's limit`;

/** The route the example 403 is for: the first one a Read only key may not call. */
const exampleRoute = (publicRoutes as readonly PublicRoute[]).find((route) => !READ_ONLY_SCOPES.includes(route.scope))!;

export default function RestrictedKeysPage() {
  const baseUrl = docsBaseUrl();
  const defaults = envDefaults();
  const [devLimits, prodLimits] = [rateLimits(defaults, "dev"), rateLimits(defaults, "prod")];
  return (
    <DocsArticle
      href="/docs/restricted-keys"
      title="Restricted keys"
      lead={
        <p>
          A key can be limited in what it may call, where it may be used from and how fast. A restricted key that leaks
          does less harm: a key that can only read the catalog cannot spend your money on models, and a key tied to your
          servers&apos; addresses is useless anywhere else.
        </p>
      }
      sections={[
        {
          id: "scopes",
          title: "Scopes",
          content: (
            <>
              <p>
                Every route of the API needs one <em>scope</em>, a name for one kind of thing a key can do. A key holds
                a set of scopes, and a request to a route whose scope the key lacks is refused with{" "}
                <Link href="#forbidden">403 insufficient_scope</Link>. The scopes and the routes each one allows:
              </p>
              <ScopeTable />
            </>
          ),
        },
        {
          id: "access",
          title: "All, Read only, or a chosen set",
          content: (
            <ul>
              <li>
                <strong>All</strong> (the default): every scope, including the scope of any route added later, so a key
                made with All keeps working as the API grows.
              </li>
              <li>
                <strong>Read only</strong>:{" "}
                {READ_ONLY_SCOPES.map((scope, index) => (
                  <span key={scope}>
                    {index > 0 && " and "}
                    <code>{scope}</code>
                  </span>
                ))}
                . The key can look at the catalog and at generations, never call a model, upload or create.
              </li>
              <li>
                <strong>A chosen set</strong> of at least one scope. It holds exactly those: a scope added in a later
                release is not in it until you add it.
              </li>
            </ul>
          ),
        },
        {
          id: "ip-allowlist",
          title: "IP allowlist",
          content: (
            <>
              <p>
                A key with an allowlist works only from the addresses in it; an empty allowlist (the default) allows any
                address. Enter up to {MAX_ALLOWLIST_ENTRIES} entries, separated by commas, spaces or new lines:
              </p>
              <ul>
                <li>
                  IPv4 addresses and ranges: <code>203.0.113.7</code>, <code>203.0.113.0/24</code>.
                </li>
                <li>
                  IPv6 addresses and ranges: <code>2001:db8::1</code>, <code>2001:db8::/32</code>. If your servers have
                  IPv6, their calls may arrive over it: list their IPv6 addresses as well as their IPv4 ones.
                </li>
                <li>
                  IPv4-mapped IPv6 addresses count as the IPv4 address they carry: <code>::ffff:203.0.113.7</code> is{" "}
                  <code>203.0.113.7</code>, as an entry and as a caller.
                </li>
              </ul>
              <p>
                A range with bits set after the prefix (<code>203.0.113.7/24</code>) is refused with a suggestion (
                <code>203.0.113.0/24</code>) rather than silently widened, and <code>/0</code>, which would allow every
                address, is refused: leave the allowlist empty instead. Addresses are read in their usual forms only:
                four-part decimal IPv4 (not <code>127.1</code> or <code>0177.0.0.1</code>), IPv6 without a zone id, and
                an IPv6 address with a dotted tail only as <code>::ffff:a.b.c.d</code>.
              </p>
              <p>
                The address checked is your server&apos;s as Keyport sees it, the same one the key&apos;s{" "}
                <em>last used</em> shows: the address the connection comes from or, where Keyport runs behind its own
                reverse proxy and the operator has set <code>TRUST_PROXY</code>, the address that proxy reports in{" "}
                <code>X-Forwarded-For</code>. An <code>X-Forwarded-For</code> header you send yourself is not believed.
                If your servers reach the internet through a NAT gateway or an outbound proxy, list its public address.
              </p>
              <p>
                A request from any other address is refused with <Link href="#forbidden">403 ip_not_allowed</Link>,
                before the scope is checked, so a caller outside the allowlist learns nothing about what the key may do.
              </p>
            </>
          ),
        },
        {
          id: "rate-limit",
          title: "A key's own rate limit",
          content: (
            <p>
              A key can have a rate limit of its own, in requests per minute, up to its environment&apos;s:{" "}
              {devLimits.perKey} for a development key and {prodLimits.perKey} for a production key by default (
              <Link href="/docs/limits-and-versioning#rate-limits">rate limits</Link>). Leave it empty for the
              environment&apos;s limit. If the operator later lowers the environment&apos;s limit, your key&apos;s limit
              is lowered with it. The account-wide limit over all of the environment&apos;s keys still applies, and the{" "}
              <code>RateLimit-*</code> headers describe whichever limit has fewer requests left. Over either, the answer
              is <Link href="/docs/errors#rate_limited">429 rate_limited</Link>. Use it to keep one integration from
              using up the account&apos;s allowance.
            </p>
          ),
        },
        {
          id: "expiry",
          title: "Production keys expire by default",
          content: (
            <p>
              A new production key expires after {DEFAULT_EXPIRY.prod} days unless you choose otherwise; <em>never</em>{" "}
              stays available, with a warning, for a key you will rotate by hand. Development keys default to never.
              Rotate before a key expires (
              <Link href="/docs/managing-keys#zero-downtime-rotation">a zero-downtime rotation</Link>): an expired key
              gets <Link href="/docs/errors#expired_api_key">401 expired_api_key</Link>.
            </p>
          ),
        },
        {
          id: "changing",
          title: "Changing restrictions",
          content: (
            <p>
              Change a key&apos;s scopes, allowlist and rate limit on its page in the{" "}
              <Link href="/dashboard">dashboard</Link>. A change holds from the next request, on every server: the
              dashboard answers only once every server has confirmed it applied the change, so there is no cache to wait
              out. Each change is in the <Link href="/dashboard/activity">activity log</Link> with the restrictions
              before and after. Rotating a key and <strong>This key leaked</strong> give the replacement the same
              restrictions.
            </p>
          ),
        },
        {
          id: "forbidden",
          title: "The 403 answers",
          content: (
            <>
              <p>
                A key that is valid but restricted gets <code>403</code>, never <code>401</code>: the key is right, the
                request is not allowed. A revoked or expired key gets its 401 first; a key outside its allowlist gets{" "}
                <code>ip_not_allowed</code> before anything is said about its scopes; a request both allows is counted
                against the rate limits. Do not retry a 403 unchanged: it fails the same way.
              </p>
              <CodeBlock code={ipNotAllowedExample(baseUrl)} lang="text" title="403 ip_not_allowed" />
              <p>
                The message names the address Keyport saw, so you can compare it with the allowlist; it never names the
                allowlist.
              </p>
              <CodeBlock
                code={insufficientScopeExample(exampleRoute, baseUrl)}
                lang="text"
                title="403 insufficient_scope"
              />
              <p>
                <code>WWW-Authenticate</code> carries the challenge of RFC 6750 section 3.1: <code>error</code> is{" "}
                <code>insufficient_scope</code> and <code>scope</code> names the scope the route needs, so a client can
                tell which key it needs without parsing the message.
              </p>
            </>
          ),
        },
        {
          id: "operator-cli",
          title: "From the operator command line",
          content: (
            <>
              <p>
                An operator of a Keyport deployment can set the same restrictions from the command line. The CLI may set
                a rate limit above the environment&apos;s default for one key; the account-wide limit still applies.
              </p>
              <CodeBlock code={cliExamples} lang="bash" title="Operator command line" />
            </>
          ),
        },
      ]}
    />
  );
}
