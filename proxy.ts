// Next 16's proxy (formerly middleware): the first wall between API keys and
// the internal app, and the place security headers are set. It only helps:
// every page, action and handler checks again through lib/web/guard.ts.
import { NextResponse, type NextRequest } from "next/server";
import { carriesApiKey } from "./lib/auth/api-key-headers";
import { publicBaseUrl } from "./lib/env-schema";
import { errorResponse } from "./lib/errors/error-response";
import { newRequestId } from "./lib/errors/request-id";
import { smallPage } from "./lib/http/screen-request.mjs";
import { screenActionBody } from "./lib/security/action-body";
import { contentSecurityPolicy, needsNonce } from "./lib/security/csp";
import { crossOriginWrite } from "./lib/security/form-origin";
import { strictTransportSecurity } from "./lib/security/hsts";

export async function proxy(request: NextRequest) {
  const requestId = newRequestId();
  const baseUrl = publicBaseUrl();

  // Keys work only on the public API. Deciding needs no database: any
  // X-API-Key or Bearer credential on an internal route is refused, with or
  // without a session cookie beside it.
  if (carriesApiKey(request.headers)) {
    const refused = errorResponse("api_key_not_allowed", { baseUrl, requestId });
    applySecurityHeaders(refused.headers, contentSecurityPolicy(null), baseUrl);
    return refused;
  }

  // A form post or server action from any other origin (scheme, host and port) changes nothing.
  const origin = request.headers.get("origin");
  const development = process.env.NODE_ENV === "development";
  if (crossOriginWrite(request.method, origin, { baseUrl, host: request.headers.get("host"), development })) {
    const refused = new NextResponse("This form was sent from another site.", {
      status: 403,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "X-Request-Id": requestId },
    });
    applySecurityHeaders(refused.headers, contentSecurityPolicy(null), baseUrl);
    return refused;
  }

  // A server-action body Next and React cannot decode would fail inside them with a 500: refused here.
  const body = await screenActionBody(request);
  if (!body.ok) return unreadableForm(body.status, requestId, baseUrl);

  const nonce = needsNonce(request.nextUrl.pathname) ? btoa(crypto.randomUUID()) : null;
  const csp = contentSecurityPolicy(nonce);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-request-id", requestId);
  // Next reads the nonce from the request's CSP header and puts it on its own scripts.
  if (nonce) requestHeaders.set("content-security-policy", csp);

  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("X-Request-Id", requestId);
  applySecurityHeaders(response.headers, csp, baseUrl);
  return response;
}

/** The small page for a form Next could not read: 400, or 413 past its size limit. */
function unreadableForm(status: 400 | 413, requestId: string, baseUrl: string): NextResponse {
  const page =
    status === 413
      ? smallPage(413, "Form too large", "This form sent more than Keyport accepts (1 MiB).")
      : smallPage(400, "Bad request", "This form's data could not be read. Reload the page and send the form again.");
  const refused = new NextResponse(page.body, { status, headers: { ...page.headers, "X-Request-Id": requestId } });
  const hsts = strictTransportSecurity(baseUrl);
  if (hsts) refused.headers.set("Strict-Transport-Security", hsts);
  return refused;
}

function applySecurityHeaders(headers: Headers, csp: string, baseUrl: string) {
  headers.set("Content-Security-Policy", csp);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  const hsts = strictTransportSecurity(baseUrl);
  if (hsts) headers.set("Strict-Transport-Security", hsts);
}

export const config = {
  // Everything except the public API's namespace, which the gate owns (and
  // whose uploads must not meet the proxy's body limit). The model-action
  // paths hold ":" which a matcher would read as a parameter: one more reason
  // to leave /api/v1 and /api/v1beta out entirely.
  matcher: ["/((?!api/v1/|api/v1beta/|api/v1$|api/v1beta$).*)"],
};
