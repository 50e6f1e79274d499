import type { Metadata } from "next";
import Link from "next/link";
import { DocsArticle } from "@/components/docs/docs-article";
import { RouteTable } from "@/components/docs/route-table";
import { publicRoutes, versionOf } from "@/lib/public-api/routes";

export const metadata: Metadata = { title: "Route list" };

export default function RouteListPage() {
  const count = (version: "v1" | "v1beta") => publicRoutes.filter((route) => versionOf(route) === version).length;
  return (
    <DocsArticle
      href="/docs/routes"
      title="Route list"
      lead={
        <p>
          The public API is exactly these {publicRoutes.length} routes; every one takes an API key in either header
          form. The list is generated from the same registry the API enforces, and so is the OpenAPI document at{" "}
          <a href="/openapi.json">
            <code>/openapi.json</code>
          </a>
          .
        </p>
      }
      sections={[
        {
          id: "all-routes",
          title: "All routes, by version",
          content: <RouteTable grouped />,
        },
        {
          id: "versions",
          title: "v1 and v1beta",
          content: (
            <p>
              <code>v1</code> ({count("v1")} routes) is the stable API: the catalog, OpenAI- and Anthropic-style text
              generation, files and media generations. <code>v1beta</code> ({count("v1beta")} routes) holds the
              Gemini-style text generation, under the path Google&apos;s client libraries use. What each promises is on{" "}
              <Link href="/docs/limits-and-versioning#versions">Limits and versioning</Link>.
            </p>
          ),
        },
        {
          id: "every-response",
          title: "On every response",
          content: (
            <ul>
              <li>
                <code>X-Request-Id</code>: quote it when you contact support.
              </li>
              <li>
                <code>Cache-Control: no-store</code>.
              </li>
              <li>
                <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code> and <code>RateLimit-Reset</code> once the
                key was accepted (<Link href="/docs/limits-and-versioning#rate-limits">rate limits</Link>).
              </li>
              <li>
                Errors in one JSON shape with a <code>doc_url</code> into <Link href="/docs/errors">Errors</Link>.
              </li>
            </ul>
          ),
        },
      ]}
    />
  );
}
