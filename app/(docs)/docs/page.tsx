import type { Metadata } from "next";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th, THead } from "@/components/ui/table";
import { publicRoutes, versionOf } from "@/lib/public-api/routes";

export const metadata: Metadata = { title: "API documentation" };

export default function DocsOverviewPage() {
  return (
    <article className="max-w-3xl">
      <h1 className="text-3xl font-bold">The Keyport API</h1>
      <p className="mt-4 text-zinc-700 dark:text-zinc-300">
        A server-to-server API. Every call carries an API key, sent as <code>Authorization: Bearer &lt;key&gt;</code>{" "}
        (recommended) or <code>X-API-Key: &lt;key&gt;</code>. Keys begin with <code>sk_</code> and work only on the{" "}
        {publicRoutes.length} routes below; every other route of this site takes a browser session and refuses a key.
      </p>
      <h2 className="mt-10 text-xl font-semibold">Routes</h2>
      <div className="mt-4">
        <Table caption="The public API's routes">
          <THead>
            <tr>
              <Th>Method</Th>
              <Th>Path</Th>
              <Th>Summary</Th>
            </tr>
          </THead>
          <tbody>
            {publicRoutes.map((route) => (
              <tr key={route.name}>
                <Td>
                  <Badge tone={route.method === "GET" ? "info" : "success"}>{route.method}</Badge>
                </Td>
                <Td>
                  <code className="break-all">{route.path}</code>{" "}
                  {versionOf(route) === "v1beta" && <Badge tone="warning">beta</Badge>}
                </Td>
                <Td>{route.summary}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
    </article>
  );
}
