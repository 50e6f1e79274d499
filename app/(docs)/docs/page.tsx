import type { Metadata } from "next";
import Link from "next/link";
import { CodeBlock } from "@/components/docs/code-block";
import { DocsArticle } from "@/components/docs/docs-article";
import { RouteTable } from "@/components/docs/route-table";
import { exampleInputs } from "@/lib/docs/example-inputs";
import { KEY_ENV, routeExamples } from "@/lib/docs/examples";
import { docsBaseUrl } from "@/lib/docs/base-url";
import { publicRoutes } from "@/lib/public-api/routes";

export const metadata: Metadata = { title: "API documentation" };

const listModels = publicRoutes.find((route) => route.name === "list_models")!;

export default function DocsOverviewPage() {
  const baseUrl = docsBaseUrl();
  const firstCall = routeExamples(baseUrl, listModels, exampleInputs.list_models).find(
    (example) => example.language === "curl" && example.form === "bearer",
  )!;
  return (
    <DocsArticle
      href="/docs"
      title="The Keyport API"
      lead={
        <p>
          A server-to-server API: list the catalog&apos;s models and apps, call the sandbox text models in the OpenAI,
          Anthropic and Gemini formats, upload files and run media generations. Every call carries an API key from your
          dashboard; nothing else authenticates it.
        </p>
      }
      sections={[
        {
          id: "base-url",
          title: "Base URL",
          content: (
            <>
              <p>
                Every path in these docs is relative to this deployment&apos;s origin, <code>{baseUrl}</code> (its{" "}
                <code>PUBLIC_BASE_URL</code>). The examples are written out with it, ready to paste.
              </p>
              <p>
                The machine-readable description of the {publicRoutes.length} routes is the OpenAPI 3.1 document at{" "}
                <a href="/openapi.json">
                  <code>/openapi.json</code>
                </a>
                .
              </p>
            </>
          ),
        },
        {
          id: "quick-start",
          title: "Quick start",
          content: (
            <ol>
              <li>
                <strong>Create a development key.</strong> <Link href="/sign-up">Create an account</Link> (or{" "}
                <Link href="/sign-in">sign in</Link>), open the <Link href="/dashboard">dashboard</Link>, and create a
                key in the <em>dev</em> environment. Copy it: the full key is shown once.
              </li>
              <li>
                <strong>Export it as an environment variable</strong> in your shell, so it stays out of your code and
                your shell history&apos;s commands:
                <CodeBlock
                  code={`read -rs ${KEY_ENV} && export ${KEY_ENV}`}
                  lang="bash"
                  title="Paste the key, then Enter"
                />
              </li>
              <li>
                <strong>Make the first call:</strong> list the text models.
                <CodeBlock
                  code={firstCall.code}
                  lang="bash"
                  title="curl · Authorization: Bearer"
                  example={{ route: listModels.name, language: "curl", form: "bearer", variant: "quick-start" }}
                />
                A JSON list of models means your key works. A 401 says what was wrong with it; see{" "}
                <Link href="/docs/authentication#unauthorized">the 401 responses</Link>.
              </li>
            </ol>
          ),
        },
        {
          id: "routes",
          title: "What you can call",
          content: (
            <>
              <p>
                These {publicRoutes.length} routes are the whole public API; each has its own page with examples in
                curl, Node and Python. Every other path of this site is the portal, which takes a browser session and
                refuses API keys (<Link href="/docs/sessions-and-keys">why</Link>).
              </p>
              <RouteTable />
            </>
          ),
        },
        {
          id: "next",
          title: "Next steps",
          content: (
            <ul>
              <li>
                <Link href="/docs/authentication">Authentication</Link>: the two header forms and what a 401 means.
              </li>
              <li>
                <Link href="/docs/keeping-keys-safe">Keeping keys safe</Link>: environment variables, and never in a
                browser.
              </li>
              <li>
                <Link href="/docs/restricted-keys">Restricted keys</Link>: give each key only the routes, addresses and
                rate it needs.
              </li>
              <li>
                <Link href="/docs/managing-keys#leaked-key-checklist">The leaked-key checklist</Link>, for the day you
                need it.
              </li>
            </ul>
          ),
        },
      ]}
    />
  );
}
