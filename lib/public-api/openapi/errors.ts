// The error body (lib/errors/error-response.ts) and the catalog's codes as
// OpenAPI components, and each route's error answers grouped by status.
import { errorCatalog, errorCodes, type ErrorCode } from "../../errors/error-catalog";
import { errorBody } from "../../errors/error-response";
import { insufficientScopeChallenge } from "../credentials";
import { routeErrors, type PublicRoute } from "../routes";
import { errorHeaders, headerRefs } from "./headers";
import type { HeaderObject, MediaType, ResponseObject, Reference } from "./types";

const ERROR_SCHEMA_REF = { $ref: "#/components/schemas/Error" };
const errorTypes = [...new Set(Object.values(errorCatalog).map((entry) => entry.type))];

export const errorSchema = {
  type: "object",
  required: ["error"],
  additionalProperties: false,
  properties: {
    error: {
      type: "object",
      required: ["type", "code", "message", "doc_url", "request_id"],
      additionalProperties: false,
      properties: {
        type: { type: "string", enum: errorTypes },
        code: { type: "string", enum: errorCodes },
        message: { type: "string", description: "What went wrong, for a person; may be more precise than the code." },
        param: { type: "string", description: "The field, header or parameter at fault, when there is one." },
        doc_url: { type: "string", format: "uri", description: "The code's entry in /docs/errors." },
        request_id: { type: "string", pattern: "^req_[0-9a-z]{24}$" },
      },
    },
  },
};

/** One example body per code, built by the same function the server answers with. */
export function errorExamples(baseUrl: string) {
  return Object.fromEntries(
    errorCodes.map((code) => [
      code,
      {
        summary: errorCatalog[code].message,
        value: errorBody(code, { baseUrl, requestId: "req_0123456789abcdefghijklmn" }),
      },
    ]),
  );
}

function errorContent(codes: ErrorCode[]): Record<string, MediaType> {
  const examples = Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/examples/${code}` }]));
  return { "application/json": { schema: ERROR_SCHEMA_REF, examples } };
}

/** components.responses: one per code, described by the catalog's message. */
export function errorResponseComponents(): Record<string, ResponseObject> {
  return Object.fromEntries(
    errorCodes.map((code) => {
      const { status, message } = errorCatalog[code];
      // insufficient_scope is the one 403 with a challenge; whatever the route, it always has one.
      const headers =
        code === "insufficient_scope" ? headerRefs("X-Request-Id", "WWW-Authenticate") : errorHeaders(status);
      return [code, { description: message, headers, content: errorContent([code]) }];
    }),
  );
}

/**
 * A route's 403 shares its status between ip_not_allowed (no challenge) and
 * insufficient_scope, whose challenge names this route's scope: described
 * here, with the exact value as the example.
 */
function scopeChallenge(route: PublicRoute): HeaderObject {
  return {
    description: "Sent with `insufficient_scope` only: RFC 6750's challenge naming the scope this route needs.",
    required: false,
    schema: { type: "string" },
    example: insufficientScopeChallenge(route.scope),
  };
}

function routeErrorHeaders(route: PublicRoute, status: number, codes: ErrorCode[]) {
  const headers: Record<string, Reference | HeaderObject> = errorHeaders(status);
  if (codes.includes("insufficient_scope")) headers["WWW-Authenticate"] = scopeChallenge(route);
  return headers;
}

/**
 * A route's error answers, keyed by status. OpenAPI allows one response per
 * status, so codes that share one (the four 401s) share it: the description
 * lists each code with its message and the examples hold one body per code.
 */
export function errorResponses(route: PublicRoute): Record<string, ResponseObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of routeErrors(route)) {
    const status = errorCatalog[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      String(status),
      {
        description: codes.map((code) => `- \`${code}\`: ${errorCatalog[code].message}`).join("\n"),
        headers: routeErrorHeaders(route, status, codes),
        content: errorContent(codes),
      },
    ]),
  );
}
