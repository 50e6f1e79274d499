// The OpenAPI 3.1 document of the public API, built from the route registry
// so it cannot list a route the gate does not serve or miss one it does.
// Served at GET /openapi.json; free of server code so unit tests import it.
import { errorExamples, errorResponseComponents, errorSchema } from "./openapi/errors";
import { headerComponents } from "./openapi/headers";
import { jsonSchema } from "./openapi/json-schema";
import { operation } from "./openapi/operations";
import { securitySchemes } from "./openapi/security";
import { responseComponents } from "./openapi/success";
import type { PathItem } from "./openapi/types";
import { publicRoutes, templatePath, type PublicRoute } from "./routes";

const DESCRIPTION = `Keyport's public API: ${publicRoutes.length} routes under /api/v1 and /api/v1beta.

Send your API key as \`Authorization: Bearer <key>\` (recommended) or \`X-API-Key: <key>\`, never in the URL.
Each operation needs one scope (see the bearerAuth scheme); a key may hold all of them or only some, and may be
limited to an IP allowlist. Every GET route also answers HEAD. Every answer carries \`X-Request-Id\` and \`Cache-Control: no-store\`;
errors share one body, \`{ "error": { type, code, message, param?, doc_url, request_id } }\`.

The guides and the error reference are at /docs.`;

function paths(): Record<string, PathItem> {
  const result: Record<string, PathItem> = {};
  for (const route of publicRoutes as readonly PublicRoute[]) {
    const item = (result[templatePath(route.path)] ??= {});
    item[route.method === "GET" ? "get" : "post"] = operation(route);
  }
  return result;
}

export function openApiDocument(baseUrl: string) {
  const origin = baseUrl.replace(/\/$/, "");
  return {
    openapi: "3.1.0" as const,
    info: { title: "Keyport API", version: "1.0.0", description: DESCRIPTION },
    externalDocs: { description: "Keyport's documentation", url: `${origin}/docs` },
    servers: [{ url: origin }],
    security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    tags: [
      { name: "v1", description: "Catalog, OpenAI- and Anthropic-style model routes, files and generations." },
      { name: "v1beta", description: "Gemini-style model routes." },
    ],
    paths: paths(),
    components: {
      securitySchemes,
      schemas: {
        Error: errorSchema,
        ...(Object.fromEntries(
          [...responseComponents].map(([schema, name]) => [name, jsonSchema(schema, "output")]),
        ) as Record<string, unknown>),
      },
      responses: errorResponseComponents(),
      headers: headerComponents,
      examples: errorExamples(origin),
    },
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
