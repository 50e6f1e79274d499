// The headers the gate sets (lib/public-api/gate.ts), as reusable components.
import type { Reference } from "./types";

const integer = { type: "integer", minimum: 0 };

export const headerComponents = {
  "X-Request-Id": {
    description: "The request's id; quote it when you report a problem. The same id is in an error body.",
    required: true,
    schema: { type: "string", pattern: "^req_[0-9a-z]{24}$" },
  },
  "RateLimit-Limit": { description: "Requests this key may make per one-minute window.", schema: integer },
  "RateLimit-Remaining": { description: "Requests left in the current window.", schema: integer },
  "RateLimit-Reset": { description: "Seconds until the window resets.", schema: integer },
  "Retry-After": { description: "Seconds to wait before retrying.", required: true, schema: integer },
  "WWW-Authenticate": {
    description:
      'The Bearer challenge: `Bearer realm="keyport", error="invalid_token"` for a key that is not valid; `Bearer realm="keyport", error="insufficient_scope", scope="<scope>"` for a valid key without the scope the route needs.',
    required: true,
    schema: { type: "string" },
  },
  Allow: { description: "The methods the route accepts.", required: true, schema: { type: "string" } },
  "Idempotent-Replayed": {
    description: "`true` when this answer replays an earlier request made with the same Idempotency-Key.",
    schema: { type: "string", enum: ["true"] },
  },
} as const;

export type HeaderName = keyof typeof headerComponents;

export function headerRefs(...names: HeaderName[]): Record<string, Reference> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

const RATE_LIMIT: HeaderName[] = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];

/** What every answer of a verified, counted request carries. */
export const successHeaders = () => headerRefs("X-Request-Id", ...RATE_LIMIT);

/** Every error has a request id; some statuses carry the header that says what to do next. */
export function errorHeaders(status: number): Record<string, Reference> {
  if (status === 401) return headerRefs("X-Request-Id", "WWW-Authenticate");
  if (status === 405) return headerRefs("X-Request-Id", "Allow");
  if (status === 429) return headerRefs("X-Request-Id", "Retry-After", ...RATE_LIMIT);
  // The store or the database could not answer in time (lib/public-api/gate.ts says when to try again).
  if (status === 503) return headerRefs("X-Request-Id", "Retry-After");
  return headerRefs("X-Request-Id");
}
