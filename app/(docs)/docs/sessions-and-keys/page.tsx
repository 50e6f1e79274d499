import type { Metadata } from "next";
import Link from "next/link";
import { CodeBlock } from "@/components/docs/code-block";
import { DocsArticle } from "@/components/docs/docs-article";
import { SessionsKeysDiagram } from "@/components/docs/sessions-keys-diagram";
import { errorExample } from "@/lib/docs/error-examples";
import { docsBaseUrl } from "@/lib/docs/base-url";
import { WWW_AUTHENTICATE } from "@/lib/public-api/credentials";
import { publicRoutes } from "@/lib/public-api/routes";

export const metadata: Metadata = { title: "Sessions and keys" };

export default function SessionsAndKeysPage() {
  const baseUrl = docsBaseUrl();
  return (
    <DocsArticle
      href="/docs/sessions-and-keys"
      title="Sessions and keys"
      lead={
        <p>
          Keyport has two kinds of credential, for two kinds of caller, and they never stand in for each other: a
          browser session for people using the portal, an API key for your servers calling the API.
        </p>
      }
      sections={[
        {
          id: "diagram",
          title: "Who uses what",
          content: <SessionsKeysDiagram routeCount={publicRoutes.length} />,
        },
        {
          id: "sessions",
          title: "A browser session is for the portal",
          content: (
            <p>
              When you <Link href="/sign-in">sign in</Link>, your browser gets a session cookie. It lets you use the
              dashboard: create, label, rotate and revoke keys, read the activity log, and end your other sessions from
              your account page. It is <code>HttpOnly</code>, scoped to this site, and ends after 7 idle days or 30 days
              at most.
            </p>
          ),
        },
        {
          id: "keys",
          title: "An API key is for server-to-server calls",
          content: (
            <p>
              An API key authenticates your server to the {publicRoutes.length} routes of the public API under{" "}
              <code>/api/v1</code> and <code>/api/v1beta</code>, sent as <code>Authorization: Bearer &lt;key&gt;</code>{" "}
              or <code>X-API-Key: &lt;key&gt;</code> (<Link href="/docs/authentication">Authentication</Link>). It
              belongs in your server&apos;s environment, <Link href="/docs/keeping-keys-safe">never in a browser</Link>.
            </p>
          ),
        },
        {
          id: "keys-refused-elsewhere",
          title: "Keys are refused on every other route",
          content: (
            <>
              <p>
                A request to any path outside the public API that carries an API key is refused with <code>403</code>,
                whether or not it also has a session cookie, before anything else runs. That means either header, and
                also a key anywhere in any other header but <code>Cookie</code> and <code>Referer</code> (which other
                sites can set) and <code>User-Agent</code>, under any scheme or encoding (even inside <code>Basic</code>
                , base64 or hex), however long the value. This is the response (besides the security headers every
                response carries):
              </p>
              <CodeBlock
                code={errorExample("api_key_not_allowed", baseUrl)}
                lang="text"
                title="403 api_key_not_allowed"
              />
              <p>
                So a leaked key cannot sign in, change your account, or create more keys: it can only call the API, and
                you can revoke it from the dashboard in one click.
              </p>
            </>
          ),
        },
        {
          id: "sessions-do-not-authenticate-the-api",
          title: "Sessions do not authenticate the API",
          content: (
            <>
              <p>
                The public API ignores cookies. A request from a signed-in browser without a key gets the same answer as
                any other request without a key:
              </p>
              <CodeBlock
                code={errorExample("missing_api_key", baseUrl, { headers: { "WWW-Authenticate": WWW_AUTHENTICATE } })}
                lang="text"
                title="401 missing_api_key"
              />
              <p>
                That is also why the API needs no CSRF protection and sends no CORS headers: a web page cannot borrow a
                visitor&apos;s session to call it.
              </p>
            </>
          ),
        },
        {
          id: "neither",
          title: "Two routes take neither",
          content: (
            <>
              <p>
                Two routes outside the public API need no session and no key, because all they can do is take a leaked
                key away from whoever leaked it:
              </p>
              <ul>
                <li>
                  <code>POST /webhooks/secret-scanning</code>, where GitHub reports Keyport keys it finds in public
                  code. It is authenticated by GitHub&apos;s signature over the raw body (ECDSA P-256); an unsigned or
                  badly signed report gets <code>401 invalid_signature</code> and changes nothing.
                </li>
                <li>
                  <Link href="/report-a-key">Report a key</Link>, a form where anyone who found a key can hand it in. It
                  answers the same whatever the key was, and keeps nothing of what was pasted.
                </li>
              </ul>
              <p>
                A live key reported either way is revoked at once, and its owner is told by email and on the dashboard;
                no replacement is made without them. Both still refuse a request with a key in a header (
                <code>403 api_key_not_allowed</code>), and a session cookie gains nothing there.
              </p>
            </>
          ),
        },
      ]}
    />
  );
}
