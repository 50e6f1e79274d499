// Error responses as the docs show them: built by the same errorBody the
// gate and the guard answer with, so the shape on the page is the shape on
// the wire.
import { STATUS_CODES } from "node:http";
import { errorCatalog, type ErrorCode } from "../errors/error-catalog";
import { errorBody } from "../errors/error-response";
import { insufficientScopeChallenge, insufficientScopeMessage, ipNotAllowedMessage } from "../public-api/credentials";
import type { PublicRoute } from "../public-api/routes";

const EXAMPLE_REQUEST_ID = "req_7f3kq9x2m4n8p1r5t6v0w2yz";

export function errorExample(
  code: ErrorCode,
  baseUrl: string,
  options: { headers?: Record<string, string>; message?: string; param?: string } = {},
): string {
  const status = errorCatalog[code].status;
  const headers = {
    "Content-Type": "application/json",
    "Cache-Control": "no-store",
    ...options.headers,
    "X-Request-Id": EXAMPLE_REQUEST_ID,
  };
  const body = errorBody(code, {
    baseUrl,
    requestId: EXAMPLE_REQUEST_ID,
    message: options.message,
    param: options.param,
  });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    "",
    JSON.stringify(body, null, 2),
  ].join("\n");
}

/** An address from TEST-NET-2 (RFC 5737): what the example 403 says the gate saw. */
export const EXAMPLE_CLIENT_IP = "198.51.100.23";

/** 403 ip_not_allowed, worded as the gate words it. */
export function ipNotAllowedExample(baseUrl: string): string {
  return errorExample("ip_not_allowed", baseUrl, { message: ipNotAllowedMessage(EXAMPLE_CLIENT_IP) });
}

/** 403 insufficient_scope for one route, with RFC 6750's challenge naming the route's scope. */
export function insufficientScopeExample(route: PublicRoute, baseUrl: string): string {
  return errorExample("insufficient_scope", baseUrl, {
    message: insufficientScopeMessage(route),
    headers: { "WWW-Authenticate": insufficientScopeChallenge(route.scope) },
  });
}
