// The error catalog: every error code the app returns, with its HTTP status,
// its type and a default message. The public API, the internal routes and the
// docs' error page all read this one table.

export type ErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "not_found_error"
  | "rate_limit_error"
  | "api_error";

export interface CatalogEntry {
  status: number;
  type: ErrorType;
  message: string;
  /** What a client should do about it; shown in the docs. */
  remedy: string;
}

export const errorCatalog = {
  invalid_request: {
    status: 400,
    type: "invalid_request_error",
    message: "The request is not valid.",
    remedy: "Fix the field named in `param` (or the request as described in `message`) and send it again.",
  },
  api_key_misplaced: {
    status: 400,
    type: "invalid_request_error",
    message:
      "The request holds an API key in a value that would be stored (named in `param`). Nothing was stored, and the key still works: it was sent to Keyport, not made public.",
    remedy:
      "Send your key only in `Authorization` or `X-API-Key`. Use a random value (a UUID) as `Idempotency-Key`, and keep keys out of a `prompt` and of a file's name and `purpose`.",
  },
  missing_api_key: {
    status: 401,
    type: "authentication_error",
    message: "No API key was sent. Send it as `Authorization: Bearer <key>` or `X-API-Key: <key>`.",
    remedy: "Send your key in one of the two headers.",
  },
  invalid_api_key: {
    status: 401,
    type: "authentication_error",
    message: "The API key is not valid.",
    remedy: "Check that you copied the whole key; create a new one in the dashboard if it is lost.",
  },
  revoked_api_key: {
    status: 401,
    type: "authentication_error",
    message: "This API key has been revoked.",
    remedy: "Use another active key, or create one in the dashboard.",
  },
  expired_api_key: {
    status: 401,
    type: "authentication_error",
    message: "This API key has expired.",
    remedy: "Switch to the key that replaced it, or create a new one in the dashboard.",
  },
  invalid_signature: {
    status: 401,
    type: "authentication_error",
    message:
      "The report's signature is missing, made with a key that is not configured, or does not match the body as sent.",
    remedy:
      "Sign the raw body with a current secret-scanning key (ECDSA P-256, SHA-256) and send its identifier and signature in Github-Public-Key-Identifier and Github-Public-Key-Signature.",
  },
  session_required: {
    status: 401,
    type: "authentication_error",
    message: "This route needs a signed-in browser session.",
    remedy: "Sign in to the portal in your browser.",
  },
  api_key_not_allowed: {
    status: 403,
    type: "permission_error",
    message:
      "API keys work only on the public API (/api/v1 and /api/v1beta). This route needs a browser session; remove the key from the request.",
    remedy: "Call this route from the portal with a browser session, or call the public API with your key.",
  },
  ip_not_allowed: {
    status: 403,
    type: "permission_error",
    message: "This API key cannot be used from this IP address.",
    remedy:
      "Call from an address in the key's IP allowlist, or add this address to the allowlist on the key's page in the dashboard.",
  },
  insufficient_scope: {
    status: 403,
    type: "permission_error",
    message: "This API key does not have the scope this route needs.",
    remedy:
      "Use a key that has the scope named in the message and in the WWW-Authenticate header, or add the scope on the key's page in the dashboard.",
  },
  not_found: {
    status: 404,
    type: "not_found_error",
    message: "Nothing was found at this address.",
    remedy: "Check the path and the id; records of another account or environment are not visible.",
  },
  method_not_allowed: {
    status: 405,
    type: "invalid_request_error",
    message: "This route does not accept that method.",
    remedy: "Use one of the methods in the `Allow` header.",
  },
  payload_too_large: {
    status: 413,
    type: "invalid_request_error",
    message: "The request body is too large.",
    remedy: "Send a smaller body; the limits are in the docs.",
  },
  storage_quota_exceeded: {
    status: 413,
    type: "invalid_request_error",
    message: "This upload would take the account's stored files past its storage quota.",
    remedy:
      "Files are deleted after the retention period (see the limits page); wait for older ones to go, or ask the operator for a larger quota.",
  },
  unsupported_media_type: {
    status: 415,
    type: "invalid_request_error",
    message: "The request body's content type is not accepted here.",
    remedy: "Send the content type the route documents (usually application/json).",
  },
  idempotency_key_mismatch: {
    status: 422,
    type: "invalid_request_error",
    message: "This Idempotency-Key was already used with a different request body.",
    remedy: "Use a new Idempotency-Key for a different request.",
  },
  rate_limited: {
    status: 429,
    type: "rate_limit_error",
    message: "Too many requests. Slow down and try again after the time in the Retry-After header.",
    remedy: "Wait for the seconds in `Retry-After`, then retry; spread requests out.",
  },
  internal_error: {
    status: 500,
    type: "api_error",
    message: "Something went wrong on our side. Try again; if it persists, contact support with the request id.",
    remedy: "Retry with backoff; report the `request_id` if it keeps happening.",
  },
  service_unavailable: {
    status: 503,
    type: "api_error",
    message: "The service is temporarily unavailable. Try again shortly.",
    remedy: "Wait for the seconds in `Retry-After`, then retry with backoff.",
  },
} as const satisfies Record<string, CatalogEntry>;

export type ErrorCode = keyof typeof errorCatalog;

export const errorCodes = Object.keys(errorCatalog) as ErrorCode[];
