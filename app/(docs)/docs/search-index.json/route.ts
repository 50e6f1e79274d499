import { buildSearchIndex } from "@/lib/docs/search-index";

// Built once at build time, like the pages it indexes. A request with an API
// key never reaches it: proxy.ts refuses keys on every non-API path.
export const dynamic = "force-static";

// GET /docs/search-index.json
export function GET() {
  return Response.json(buildSearchIndex());
}
