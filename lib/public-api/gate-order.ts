// The order of the gate's checks (lib/public-api/gate.ts runs them; the first
// failure answers), stated once: the docs' errors page renders it, and
// docs/public-api.md's table is written from it (`npm run docs:gate`).
// Free of server code: the docs import it.
import type { ErrorCode } from "../errors/error-catalog";

export interface GateStep {
  /** What is checked, in words; `code` in backticks. */
  check: string;
  /** What a failure answers. */
  answer: string;
  /** The catalog codes the step can answer with. */
  codes: readonly ErrorCode[];
}

export const GATE_ORDER: readonly GateStep[] = [
  {
    check: "an unknown path under `/api/v1` or `/api/v1beta` (a malformed percent escape included)",
    answer: "404 `not_found`",
    codes: ["not_found"],
  },
  {
    check: "a known path with a method it does not take",
    answer:
      "405 `method_not_allowed` with `Allow` (`HEAD` is `GET`; no CORS, so a preflight gets no `Access-Control-Allow-Origin`)",
    codes: ["method_not_allowed"],
  },
  {
    check: "a key in the URL (`?key=`, `?api_key=`, or any value that looks like a key)",
    answer: "400 `invalid_request`",
    codes: ["invalid_request"],
  },
  {
    check: "the headers: no key; `Authorization` and `X-API-Key` with different keys; another scheme (`Basic`)",
    answer:
      '401 `missing_api_key` (`WWW-Authenticate: Bearer realm="keyport"`); 400 `invalid_request` (the same key twice is fine); 401 `invalid_api_key` (a bare key gets a message saying how)',
    codes: ["missing_api_key", "invalid_request", "invalid_api_key"],
  },
  {
    check: "the key's format and checksum, before any database access",
    answer: '401 `invalid_api_key`, `error="invalid_token"`',
    codes: ["invalid_api_key"],
  },
  {
    check: "the lookup by digest: no such key",
    answer: "401 `invalid_api_key`, the same body as the step before",
    codes: ["invalid_api_key"],
  },
  {
    check: "a decoy key (planted to catch a leak: its use alerts the owner)",
    answer: "exactly the unknown key's answer",
    codes: ["invalid_api_key"],
  },
  {
    check: "a revoked or expired key (a rotated key after its grace included)",
    answer: "401 `revoked_api_key` / `expired_api_key`",
    codes: ["revoked_api_key", "expired_api_key"],
  },
  {
    check: "a client address outside the key's IP allowlist",
    answer: "403 `ip_not_allowed`, naming the address seen, never the allowlist",
    codes: ["ip_not_allowed"],
  },
  {
    check: "a key without the route's scope",
    answer:
      '403 `insufficient_scope` with `WWW-Authenticate: Bearer realm="keyport", error="insufficient_scope", scope="<scope>"`',
    codes: ["insufficient_scope"],
  },
  {
    check: "over the key's rate limit (its own, or the environment's default)",
    answer: "429 `rate_limited` with `Retry-After`",
    codes: ["rate_limited"],
  },
  {
    check: "over the team-wide rate limit (all the team's keys of the environment)",
    answer: "429 `rate_limited` with `Retry-After`, naming the team's keys",
    codes: ["rate_limited"],
  },
  {
    check: "a body over the limit (read no further than it); a wrong content type; invalid JSON or query",
    answer: "413 `payload_too_large`; 415 `unsupported_media_type`; 400 `invalid_request` with `param`",
    codes: ["payload_too_large", "unsupported_media_type", "invalid_request"],
  },
];

/** Why the allowlist comes before the scope: said beside the order wherever it is shown. */
export const ALLOWLIST_BEFORE_SCOPE =
  "The allowlist comes before the scope, so a caller outside a key's range learns nothing about what the key may do.";
