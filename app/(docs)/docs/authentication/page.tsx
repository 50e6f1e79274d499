import type { Metadata } from "next";
import Link from "next/link";
import { CodeBlock } from "@/components/docs/code-block";
import { DocsArticle } from "@/components/docs/docs-article";
import { Badge } from "@/components/ui/badge";
import { errorExample } from "@/lib/docs/error-examples";
import { exampleInputs } from "@/lib/docs/example-inputs";
import { headerFormLabels, routeExamples, type HeaderForm } from "@/lib/docs/examples";
import { docsBaseUrl } from "@/lib/docs/base-url";
import { errorCatalog } from "@/lib/errors/error-catalog";
import { API_KEY_PATTERN } from "@/lib/keys/format";
import { WWW_AUTHENTICATE, WWW_AUTHENTICATE_INVALID } from "@/lib/public-api/credentials";
import { publicRoutes } from "@/lib/public-api/routes";
import { CatalogText } from "@/components/docs/catalog-text";

export const metadata: Metadata = { title: "Authentication" };

const listModels = publicRoutes.find((route) => route.name === "list_models")!;

const headerForms = [
  {
    id: "authorization-bearer",
    form: "bearer",
    header: "Authorization",
    recommended: true,
    text: "The standard HTTP form (RFC 6750), and the one to use in production: proxies, log scrubbers and secret scanners know to treat it as a credential. The scheme name is case-insensitive.",
  },
  {
    id: "x-api-key",
    form: "x-api-key",
    header: "X-API-Key",
    recommended: false,
    text: "The alternative, for tools where a custom header is easier to set. It works the same way on every route. Send it without an Authorization header: any Authorization header that is not Bearer with the same key is refused.",
  },
] as const;

const unauthorized = [
  { code: "missing_api_key", when: "No key was sent in either header.", header: WWW_AUTHENTICATE },
  {
    code: "invalid_api_key",
    when: "The key is malformed, fails its checksum, is unknown, or came with another scheme (Basic, …). One answer for all, so the response tells an attacker nothing.",
    header: WWW_AUTHENTICATE_INVALID,
  },
  { code: "revoked_api_key", when: "The key was revoked in the dashboard.", header: WWW_AUTHENTICATE_INVALID },
  {
    code: "expired_api_key",
    when: "The key reached its expiry date, or a rotation's grace period ended.",
    header: WWW_AUTHENTICATE_INVALID,
  },
] as const;

export default function AuthenticationPage() {
  const baseUrl = docsBaseUrl();
  const examples = routeExamples(baseUrl, listModels, exampleInputs.list_models);
  const curl = (form: HeaderForm) => examples.find((e) => e.language === "curl" && e.form === form)!;
  return (
    <DocsArticle
      href="/docs/authentication"
      title="Authentication"
      lead={
        <p>
          Every request to the public API carries one API key, in a header. There are two header forms; both work on all{" "}
          {publicRoutes.length} routes. Browser sessions play no part in the API.
        </p>
      }
      sections={[
        {
          id: "header-forms",
          title: "The two header forms",
          content: (
            <div className="grid gap-4 md:grid-cols-2">
              {headerForms.map(({ id, form, header, recommended, text }) => (
                <div key={id} id={id} className="min-w-0 scroll-mt-4">
                  <h3 className="flex items-center gap-2">
                    <code>
                      {header}: {form === "bearer" ? "Bearer " : ""}&lt;key&gt;
                    </code>
                    {recommended && <Badge tone="success">Recommended</Badge>}
                  </h3>
                  <p>{text}</p>
                  <CodeBlock
                    code={curl(form).code}
                    lang="bash"
                    title={`curl · ${headerFormLabels[form]}`}
                    example={{ route: listModels.name, language: "curl", form, variant: "authentication" }}
                  />
                </div>
              ))}
            </div>
          ),
        },
        {
          id: "key-format",
          title: "The key format",
          content: (
            <>
              <p>
                A key begins with <code>sk_dev_</code> (a development key) or <code>sk_prod_</code> (a production key),
                followed by 32 random letters and digits and a 6-character checksum: 38 characters after the prefix.
                Every key matches:
              </p>
              <CodeBlock code={API_KEY_PATTERN.source} lang="text" title="The key pattern" />
              <p>
                The checksum is the CRC32 of everything before it, in base 62. It lets the API refuse a mistyped key at
                once, and lets a secret scanner tell a real Keyport key from random text. The prefix tells you at a
                glance which environment a key belongs to; the dashboard shows only the prefix and a few characters.
              </p>
            </>
          ),
        },
        {
          id: "both-headers",
          title: "Sending both headers",
          content: (
            <>
              <p>
                Sending the same key in both headers is accepted. Sending two <em>different</em> keys is refused rather
                than guessed between:
              </p>
              <CodeBlock
                code={errorExample("invalid_request", baseUrl, {
                  message: "The Authorization and X-API-Key headers carry different keys. Send the key in one header.",
                  param: "X-API-Key",
                })}
                lang="text"
                title="Two different keys"
              />
            </>
          ),
        },
        {
          id: "never-in-a-url",
          title: "Never put a key in a URL",
          content: (
            <>
              <p>
                URLs end up in server logs, proxy logs, browser history and <code>Referer</code> headers, so a key in
                one is a leaked key. The API refuses a request whose query string has a <code>key</code> or{" "}
                <code>api_key</code> parameter, or any value that looks like a key, before it looks the key up, and
                never echoes it:
              </p>
              <CodeBlock
                code={errorExample("invalid_request", baseUrl, {
                  message:
                    "Send the API key in the Authorization or X-API-Key header, never in the URL. Rotate a key that was.",
                  param: "api_key",
                })}
                lang="text"
                title="A key in the query string"
              />
              <p>
                If you did send one in a URL, treat it as leaked: follow the{" "}
                <Link href="/docs/managing-keys#leaked-key-checklist">leaked-key checklist</Link>.
              </p>
            </>
          ),
        },
        {
          id: "unauthorized",
          title: "The 401 responses",
          content: (
            <>
              <p>
                A request the API cannot authenticate gets <code>401</code> with a <code>WWW-Authenticate</code> header
                and the usual <Link href="/docs/errors">error body</Link>. Branch on <code>error.code</code>, never on
                the message:
              </p>
              {unauthorized.map(({ code, when, header }) => (
                <div key={code} id={`unauthorized-${code}`} className="min-w-0 scroll-mt-4">
                  <h3>
                    <code>{code}</code>
                  </h3>
                  <p>
                    {when} <CatalogText text={errorCatalog[code].remedy} />
                  </p>
                  <CodeBlock
                    code={errorExample(code, baseUrl, { headers: { "WWW-Authenticate": header } })}
                    lang="text"
                    title={`401 ${code}`}
                  />
                </div>
              ))}
              <p>
                A valid key can still be refused with <code>403</code>: used from outside its IP allowlist (
                <code>ip_not_allowed</code>), or on a route whose scope it does not hold (
                <code>insufficient_scope</code>). See{" "}
                <Link href="/docs/restricted-keys#forbidden">Restricted keys</Link>.
              </p>
            </>
          ),
        },
      ]}
    />
  );
}
