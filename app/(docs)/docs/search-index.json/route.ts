import { readFile } from "node:fs/promises";
import path from "node:path";
import { DOCS_SEARCH_FILE, indexEntries } from "@/lib/docs/search-index";
import { newDocsSearch } from "@/lib/docs/search";

// GET /docs/search-index.json: the docs' search index, as MiniSearch's JSON.
// `npm run build` writes it from the prerendered pages, sections and all
// (scripts/docs-search-index.mts); without that file (`npm run dev`) it is
// built here from the pages, routes and error codes alone. Cached by the
// browser for an hour. A request with an API key never reaches it: proxy.ts
// refuses keys on every non-API path.
export const dynamic = "force-dynamic";

export async function GET() {
  // Not traced by the build (turbopackIgnore): a path from process.cwd() would ship the whole project with this route
  // (tests/e2e/build-trace.spec.ts); the file is made after the build anyway.
  const file = path.resolve(/* turbopackIgnore: true */ process.cwd(), DOCS_SEARCH_FILE);
  const built = await readFile(file, "utf8").catch(() => null);
  const body = built ?? JSON.stringify(newDocsSearch(indexEntries()));
  return new Response(body, {
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
