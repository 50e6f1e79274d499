// Does a request carry an API key? Used by the proxy and by the session guard
// to keep keys off every internal route. Deliberately broad and database-free:
// any X-API-Key header or Bearer credential counts, valid or not, and so does
// any key-shaped token in Authorization or Proxy-Authorization, whatever the
// scheme (Basic is decoded first): the rule is about what a request carries,
// not only about the two header forms the public API accepts.

const KEY_SHAPED = /sk_(?:dev|prod)_[0-9A-Za-z]{8,}/;

function decodedBasic(value: string): string {
  const match = /^\s*basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(value);
  if (!match) return "";
  try {
    return atob(match[1]!.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return "";
  }
}

function percentDecoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Whether a credential header's value holds something shaped like one of our keys. */
export function holdsKeyShapedToken(value: string): boolean {
  return [value, percentDecoded(value), decodedBasic(value)].some((text) => KEY_SHAPED.test(text));
}

export function carriesApiKey(headers: Headers): boolean {
  if (headers.has("x-api-key")) return true;
  const authorization = headers.get("authorization");
  if (authorization !== null && (/^\s*bearer\b/i.test(authorization) || holdsKeyShapedToken(authorization))) {
    return true;
  }
  const proxyAuthorization = headers.get("proxy-authorization");
  return proxyAuthorization !== null && holdsKeyShapedToken(proxyAuthorization);
}
