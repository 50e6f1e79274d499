import type { Metadata } from "next";
import { Badge } from "@/components/ui/badge";
import { errorCatalog, errorCodes } from "@/lib/errors/catalog";

export const metadata: Metadata = { title: "Errors" };

const example = JSON.stringify(
  {
    error: {
      type: "authentication_error",
      code: "invalid_api_key",
      message: errorCatalog.invalid_api_key.message,
      doc_url: "https://keyport.example/docs/errors#invalid_api_key",
      request_id: "req_7f3kq9x2m4n8p1r5t6v0w2yz",
    },
  },
  null,
  2,
);

// Generated from the error catalog the gate answers with: a code cannot be
// answered without appearing here.
export default function ErrorsPage() {
  return (
    <article className="max-w-3xl">
      <h1 className="text-3xl font-bold">Errors</h1>
      <p className="mt-4">
        Every error has the same JSON body, <code>Content-Type: application/json</code>, and an{" "}
        <code>X-Request-Id</code> header. <code>param</code> names the field at fault when there is one. Quote the{" "}
        <code>request_id</code> when you contact support.
      </p>
      <pre className="mt-4 overflow-x-auto rounded-md bg-zinc-100 p-4 text-sm dark:bg-zinc-900">
        <code>{example}</code>
      </pre>
      <h2 className="mt-10 text-xl font-semibold">Codes</h2>
      <dl className="mt-4 flex flex-col gap-6">
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
                <span className="text-sm text-zinc-600 dark:text-zinc-400">{entry.type}</span>
              </dt>
              <dd className="mt-2">{entry.message}</dd>
              <dd className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">What to do: {entry.remedy}</dd>
            </div>
          );
        })}
      </dl>
    </article>
  );
}
