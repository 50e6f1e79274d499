// What server.mjs does to every request before Next's handler sees it. Plain
// JavaScript: server.mjs runs on Node as it is, without a build step.
//
// Next's router fails with a bare 500 (and a stack in the log) on a few
// requests that never reach our code: a path with a malformed percent escape,
// a TRACE, a cross-origin server action. Off the public API each is answered
// here: a small 400 or 405 page, or 403 for a cross-origin action. The public
// API (/api/v1, /api/v1beta) never goes through Next: its gate reads the
// request as it came and answers every one of these itself, in the catalog's
// shape and order (404 for an unknown path, 405 with Allow for a known one).

export const PEER_IP_HEADER = "x-keyport-peer-ip";

// The methods Next's router handles; anything else (TRACE, PROPFIND, ...) fails or misleads inside it.
const NEXT_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]);

// The public API's two prefixes, the one place they are written for the server (proxy.ts's matcher must be a
// literal for Next; tests/unit/proxy.test.ts holds it to the same paths). A path, or a target with its query.
const PUBLIC_API = /^\/api\/v1(?:beta)?(?=[/?]|$)/;

/**
 * Whether a request target, as screenRequest left it (dot segments resolved),
 * is the public API's: server.mjs hands those to the gate rather than to Next.
 * @param {string} url
 */
export function isPublicApiPath(url) {
  return PUBLIC_API.test(url);
}

/**
 * @typedef {{ method?: string, url?: string, headers: Record<string, string | string[] | undefined>, rawHeaders?: string[], socket?: { remoteAddress?: string } | null }} ScreenedRequest
 * @typedef {{ status: number, headers: Record<string, string>, body: string }} ScreenAnswer
 */

/** @param {string} path */
function decodable(path) {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * A small HTML page, for the answers given around Next: here, and the busy
 * page (lib/http/busy-page.ts).
 * @param {number} status
 * @param {string} title
 * @param {string} text
 * @param {Record<string, string>} [extraHeaders]
 * @returns {ScreenAnswer}
 */
export function smallPage(status, title, text, extraHeaders = {}) {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Keyport</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5"><h1>${title}</h1><p>${text}</p><p><a href="/">Go to the home page</a></p></body></html>`;
  return {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy":
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
      ...extraHeaders,
    },
    body,
  };
}

/**
 * Whether a POST comes from another site: its Origin's host is neither the
 * request's own nor PUBLIC_BASE_URL's. Any POST off the public API counts, not
 * only one marked as a server action: Next also treats a plain form post as a
 * (progressively enhanced) action, and answers a foreign one with a 500.
 * @param {ScreenedRequest} req
 * @param {{ trustProxy: number, publicBaseUrl: string }} options
 */
function crossOriginPost(req, { trustProxy, publicBaseUrl }) {
  const origin = req.headers.origin;
  if (Array.isArray(origin)) return true;
  // Next lets a request with no Origin through (with a warning); browsers always send one on a POST.
  if (origin === undefined) return false;
  let originHost;
  try {
    originHost = new URL(origin).host.toLowerCase();
  } catch {
    return true; // "null" and other opaque origins
  }
  const forwarded = trustProxy ? req.headers["x-forwarded-host"] : undefined;
  const ownHost = (Array.isArray(forwarded) ? forwarded[0] : forwarded) ?? req.headers.host;
  const allowed = [String(ownHost ?? "").toLowerCase()];
  try {
    allowed.push(new URL(publicBaseUrl).host.toLowerCase());
  } catch {
    // PUBLIC_BASE_URL is validated at start-up; nothing to add if it is absent here.
  }
  return !allowed.includes(originHost);
}

// Node keeps only the first of two Authorization (or Proxy-Authorization)
// headers, so the wall (proxy.ts) would judge the first and never see a key in
// the second: no client sends two, and off the public API such a request is refused.
const SINGLE_CREDENTIAL_HEADERS = ["authorization", "proxy-authorization"];

/** @param {ScreenedRequest} req */
function repeatsCredentialHeader(req) {
  const raw = req.rawHeaders ?? [];
  for (const name of SINGLE_CREDENTIAL_HEADERS) {
    let seen = 0;
    for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === name && ++seen > 1) return true;
  }
  return false;
}

/**
 * The path as Next will route it: dot segments resolved ("/x/%2e%2e/api/v1"
 * is "/api/v1"), so what is screened here is what Next serves.
 * @param {string} path
 */
function normalisedPath(path) {
  try {
    return new URL(path, "http://keyport.invalid").pathname;
  } catch {
    // A backslash right after the first slash ("/\@", "/\[") reads as the start of a host; an invalid host throws.
    return null;
  }
}

/**
 * Prepares `req` for Next or the gate (the peer address, dot segments
 * resolved), or answers it. Returns null when the request goes on, or
 * { status, headers, body }.
 * @param {ScreenedRequest} req
 * @param {{ trustProxy?: number, publicBaseUrl?: string }} [options]
 * @returns {ScreenAnswer | null}
 */
export function screenRequest(req, { trustProxy = 0, publicBaseUrl = "http://localhost:3000" } = {}) {
  req.headers[PEER_IP_HEADER] = req.socket?.remoteAddress ?? "unknown";
  // Next trusts X-Forwarded-Host in its server-action origin check: only a proxy we trust may set it.
  if (!trustProxy) delete req.headers["x-forwarded-host"];
  const hsts = publicBaseUrl.startsWith("https://")
    ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" }
    : {};

  const url = req.url ?? "/";
  // Only origin-form targets ("/path"): "*" and absolute URLs are for proxies, and fail inside Next.
  if (!url.startsWith("/") || url.startsWith("//")) {
    return smallPage(400, "Bad request", "This request target is not a path on this site.", hsts);
  }
  const queryAt = url.indexOf("?");
  const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? "" : url.slice(queryAt);
  let path = rawPath;
  if (decodable(rawPath)) {
    const resolved = normalisedPath(rawPath);
    if (resolved === null)
      return smallPage(400, "Bad request", "This request target is not a path on this site.", hsts);
    // ("/\\x" resolves to "//x", which a browser would read as another host: leave that one to Next as it came.)
    if (resolved !== rawPath && !resolved.startsWith("//")) {
      path = resolved;
      req.url = `${path}${query}`;
    }
  }
  const api = PUBLIC_API.exec(path);

  if (api) return null;
  if (!decodable(rawPath)) return smallPage(400, "Bad request", "This address has a malformed percent escape.", hsts);
  if (!NEXT_METHODS.has(req.method ?? "GET")) {
    return smallPage(405, "Method not allowed", "This page does not accept that method.", {
      Allow: "GET, HEAD, POST",
      ...hsts,
    });
  }
  if (repeatsCredentialHeader(req)) {
    return smallPage(400, "Bad request", "This request sends a credential header more than once.", hsts);
  }
  if (req.method === "POST" && crossOriginPost(req, { trustProxy, publicBaseUrl })) {
    return smallPage(403, "Forbidden", "This form was sent from another site.", hsts);
  }
  return null;
}
