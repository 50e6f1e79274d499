import type { Metadata } from "next";
import Link from "next/link";
import { CodeBlock } from "@/components/docs/code-block";
import { DocsArticle } from "@/components/docs/docs-article";
import { GateOrderTable } from "@/components/docs/gate-order-table";
import { Badge } from "@/components/ui/badge";
import { errorExample } from "@/lib/docs/error-examples";
import { docsBaseUrl } from "@/lib/docs/base-url";
import { errorCatalog, errorCodes } from "@/lib/errors/error-catalog";
import { WWW_AUTHENTICATE_INVALID } from "@/lib/public-api/credentials";
import { CatalogText } from "@/components/docs/catalog-text";

export const metadata: Metadata = { title: "Errors" };

// Generated from the error catalog the gate answers with: a code cannot be
// answered without appearing here, and every doc_url points at an anchor below.
export default function ErrorsPage() {
  const baseUrl = docsBaseUrl();
  return (
    <DocsArticle
      href="/docs/errors"
      title="Errors"
      lead={
        <p>
          Every error of the public API (and of the portal&apos;s JSON routes) has the same JSON body and a status that
          says which kind of problem it is. Branch on <code>error.code</code>; the message is for people and may change.
        </p>
      }
      sections={[
        {
          id: "shape",
          title: "The error body",
          content: (
            <>
              <p>
                <code>Content-Type: application/json</code>, an <code>X-Request-Id</code> header equal to{" "}
                <code>request_id</code>, and <code>Cache-Control: no-store</code>. <code>param</code> names the field or
                header at fault, when there is one. <code>doc_url</code> links to the code&apos;s entry on this page.
                Quote the <code>request_id</code> when you contact support.
              </p>
              <CodeBlock
                code={errorExample("invalid_api_key", baseUrl, {
                  headers: { "WWW-Authenticate": WWW_AUTHENTICATE_INVALID },
                })}
                lang="text"
                title="An error response"
              />
              <p>
                Retry <code>429</code> after <code>Retry-After</code>, and <code>500</code>/<code>503</code> with
                backoff. Do not retry other <code>4xx</code> answers unchanged: they will fail the same way. See also{" "}
                <Link href="/docs/authentication#unauthorized">the 401 responses</Link>.
              </p>
            </>
          ),
        },
        {
          id: "order",
          title: "The order of the checks",
          content: (
            <>
              <p>
                Every request to the public API passes the same checks in the same order, and the first that fails
                answers: a request with two problems always gets the same error.
              </p>
              <GateOrderTable />
            </>
          ),
        },
        {
          id: "codes",
          title: "Codes",
          content: (
            <dl className="mt-4 flex flex-col gap-4">
              {errorCodes.map((code) => {
                const entry = errorCatalog[code];
                return (
                  <div
                    key={code}
                    id={code}
                    className="scroll-mt-4 rounded-md border border-zinc-200 p-4 dark:border-zinc-800"
                  >
                    <dt className="flex flex-wrap items-center gap-2">
                      <code className="font-semibold">{code}</code>
                      <Badge tone={entry.status >= 500 ? "danger" : entry.status === 429 ? "warning" : "neutral"}>
                        HTTP {entry.status}
                      </Badge>
                      <span className="text-sm text-zinc-700 dark:text-zinc-300">{entry.type}</span>
                    </dt>
                    <dd className="mt-2">
                      <CatalogText text={entry.message} />
                    </dd>
                    <dd className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
                      What to do: <CatalogText text={entry.remedy} />
                    </dd>
                  </div>
                );
              })}
            </dl>
          ),
        },
      ]}
    />
  );
}
