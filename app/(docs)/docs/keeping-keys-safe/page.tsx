import type { Metadata } from "next";
import Link from "next/link";
import { CodeBlock } from "@/components/docs/code-block";
import { DocsArticle } from "@/components/docs/docs-article";
import { Badge } from "@/components/ui/badge";
import { docsBaseUrl } from "@/lib/docs/base-url";

export const metadata: Metadata = { title: "Keeping keys safe" };

const envFile = `# .env.local: read on the server only; add it to .gitignore
KEYPORT_API_KEY=sk_dev_…`;

const routeHandler = (baseUrl: string) => `// app/api/models/route.ts: runs on your server
export async function GET() {
  const response = await fetch("${baseUrl}/api/v1/models", {
    headers: { Authorization: \`Bearer \${process.env.KEYPORT_API_KEY}\` },
  });
  const models = await response.json();
  // Send the browser only what it needs, never the key.
  return Response.json(models.data.map((model) => model.id));
}`;

const serverAction = (baseUrl: string) => `// app/actions.ts: a server action also runs on your server
"use server";

export async function summarize(text: string) {
  const response = await fetch("${baseUrl}/api/v1/chat/completions", {
    method: "POST",
    headers: {
      Authorization: \`Bearer \${process.env.KEYPORT_API_KEY}\`,
      "Content-Type": "application/json",
    },
    body: JSON.stringify({
      model: "keyport-sandbox-mini",
      messages: [{ role: "user", content: \`Summarize: \${text}\` }],
    }),
  });
  const completion = await response.json();
  return completion.choices[0].message.content;
}`;

const clientComponent = (baseUrl: string) => `// app/models-list.tsx: DON'T. This runs in the browser.
"use client";

export function ModelsList() {
  async function load() {
    // A NEXT_PUBLIC_ variable is copied into the JavaScript every visitor
    // downloads: anyone can read the key in their browser's dev tools.
    await fetch("${baseUrl}/api/v1/models", {
      headers: { Authorization: \`Bearer \${process.env.NEXT_PUBLIC_KEYPORT_API_KEY}\` },
    });
  }
  return <button onClick={load}>Load models</button>;
}`;

export default function KeepingKeysSafePage() {
  const baseUrl = docsBaseUrl();
  return (
    <DocsArticle
      href="/docs/keeping-keys-safe"
      title="Keeping keys safe"
      lead={
        <p>
          An API key is a password for your account&apos;s API use: whoever has it can make calls you pay for and read
          what your key can read. Five habits keep it yours.
        </p>
      }
      sections={[
        {
          id: "server-side-environment",
          title: "Keep keys in server-side environment variables",
          content: (
            <>
              <p>
                Put the key in an environment variable of the server that calls the API (your platform&apos;s secret
                store, or a git-ignored <code>.env.local</code> in development), and read it in code with{" "}
                <code>process.env</code>. Never commit a key, paste it in a ticket or chat, or log it.
              </p>
              <CodeBlock code={envFile} lang="bash" title=".env.local" />
            </>
          ),
        },
        {
          id: "never-client-side",
          title: "Never ship a key in client-side JavaScript",
          content: (
            <>
              <p>
                Anything sent to a browser can be read by whoever uses it. The API is server-to-server: call it from
                your server and send your pages only the results. In a Next.js app that means a route handler or a
                server action, never a client component.
              </p>
              <h3 className="flex items-center gap-2">
                <Badge tone="success">Do</Badge> call the API from a route handler or a server action
              </h3>
              <CodeBlock code={routeHandler(baseUrl)} lang="tsx" title="Route handler (server)" />
              <CodeBlock code={serverAction(baseUrl)} lang="tsx" title="Server action (server)" />
              <h3 className="flex items-center gap-2">
                <Badge tone="danger">Don&apos;t</Badge> read the key in a client component
              </h3>
              <CodeBlock code={clientComponent(baseUrl)} lang="tsx" title="Client component (browser): leaks the key" />
              <p>
                Two rules catch this: never prefix a key&apos;s variable with <code>NEXT_PUBLIC_</code>, and import the{" "}
                <code>server-only</code> package in the module that reads the key, so a client import fails the build.
                The API also sends no CORS headers, so a browser cannot read its answers anyway.
              </p>
            </>
          ),
        },
        {
          id: "separate-environments",
          title: "Use different keys for development and production",
          content: (
            <p>
              Give each environment its own key: <code>sk_dev_</code> keys on laptops and in CI, <code>sk_prod_</code>{" "}
              keys only in production, and one key per service so you can revoke one without breaking the others. Data
              made with one environment&apos;s keys is invisible to the other&apos;s (
              <Link href="/docs/managing-keys#environments">Managing keys</Link>).
            </p>
          ),
        },
        {
          id: "least-privilege",
          title: "Give each key only what it needs",
          content: (
            <p>
              A key that only reads the catalog should not be able to call models or create generations, and a key used
              by one server should not work from anywhere else. Give it the scopes its integration uses (Read only, or a
              set you choose), an IP allowlist of your servers&apos; addresses, and a rate limit that fits. If such a
              key leaks, it is refused with 403 from any other address and on every route outside its scopes. See{" "}
              <Link href="/docs/restricted-keys">Restricted keys</Link>.
            </p>
          ),
        },
        {
          id: "rotate-when-leaked",
          title: "Rotate when a key may have leaked",
          content: (
            <p>
              If a key was committed, logged, sent in a URL or shown on screen, assume it leaked: use{" "}
              <strong>This key leaked</strong> in the dashboard and follow the{" "}
              <Link href="/docs/managing-keys#leaked-key-checklist">leaked-key checklist</Link>. Rotate routinely too: a{" "}
              <Link href="/docs/managing-keys#zero-downtime-rotation">zero-downtime rotation</Link> takes a deploy.
            </p>
          ),
        },
        {
          id: "found-in-public",
          title: "Keys found in public are revoked for you",
          content: (
            <p>
              Keyport keys have a fixed prefix and a checksum, so GitHub&apos;s secret scanning recognises them: when
              one turns up in public code, GitHub reports it to Keyport, which revokes it at once and tells you by email
              and on the dashboard. No replacement is made without you. Anyone else who finds a key can hand it in at{" "}
              <Link href="/report-a-key">Report a key</Link>, with the same result: paste the key, or the line or file
              it was in (a <code>.env</code> line, a config, a log), and every Keyport key in it is revoked.
            </p>
          ),
        },
        {
          id: "decoy-keys",
          title: "Decoy keys tell you when a place leaks",
          content: (
            <p>
              A <strong>decoy key</strong> (tick &ldquo;Decoy key&rdquo; when you create one) looks like any other key
              and never works: the API answers it exactly as it answers a key that does not exist, so whoever tries it
              learns nothing. Your activity log gets one entry an hour for it, with the first attempt&apos;s IP and
              route and a count of every attempt in that hour, the key&apos;s row says so, and you get an email (at most
              one an hour). Put one in a config file, a CI secret or a backup, and you learn the moment that place
              leaks: then rotate the real keys that were kept beside it.
            </p>
          ),
        },
      ]}
    />
  );
}
