import { refuseApiKey } from "@/lib/web/guard";
import { publicBaseUrl } from "@/lib/env-schema";
import { openApiDocument } from "@/lib/public-api/openapi";

// Dynamic, not force-static: a static handler sees no request headers, so it
// could not refuse an API key, and the base URL comes from the running
// deployment's environment rather than the build's.
export const dynamic = "force-dynamic";

// GET /openapi.json: public, like the docs. An internal route, so it refuses API keys.
export async function GET(request: Request) {
  const refused = refuseApiKey(request.headers);
  if (refused) return refused;
  return Response.json(openApiDocument(publicBaseUrl()), { headers: { "Cache-Control": "public, max-age=300" } });
}
