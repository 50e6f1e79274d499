// How a request proves it may call a route: an API key in either header, and
// the scope the route needs (lib/public-api/scopes.ts). OpenAPI 3.1 lets a
// non-OAuth requirement list "role names"; each operation lists its scope
// there and again as x-keyport-scope, for tools that ignore the first.
import type { PublicRoute } from "../routes";
import { READ_ONLY_SCOPES, SCOPE_NAMES, SCOPES } from "../../keys/scopes";
import type { SecurityRequirement } from "./types";

const scopeList = SCOPE_NAMES.map((scope) => `- \`${scope}\`: ${SCOPES[scope]}`).join("\n");

const SCOPES_DESCRIPTION = `Each operation needs one scope, listed in its security requirement and as \`x-keyport-scope\`:

${scopeList}

A key holds All (every scope, including those of routes added later), Read only (${READ_ONLY_SCOPES.map((scope) => `\`${scope}\``).join(" and ")}) or a chosen set.
A valid key without the route's scope is refused with 403 \`insufficient_scope\` and
\`WWW-Authenticate: Bearer realm="keyport", error="insufficient_scope", scope="<scope>"\` (RFC 6750 section 3.1);
a key used from outside its IP allowlist is refused first, with 403 \`ip_not_allowed\`.`;

export const securitySchemes = {
  bearerAuth: {
    type: "http",
    scheme: "bearer",
    description: `Recommended: \`Authorization: Bearer <key>\`.\n\n${SCOPES_DESCRIPTION}`,
  },
  apiKeyHeader: {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description: "`X-API-Key: <key>`. The same key and the same scopes as `bearerAuth`.",
  },
} as const;

/** Either header form, each holding the route's scope. */
export function operationSecurity(route: PublicRoute): SecurityRequirement[] {
  return [{ bearerAuth: [route.scope] }, { apiKeyHeader: [route.scope] }];
}
