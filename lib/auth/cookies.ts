// Cookie names and flags. On https the session cookie gets Secure and the
// __Host- prefix (no Domain, Path=/, Secure: it cannot be set by a subdomain
// or over http); on plain http (local runs, the test server) neither, or the
// browser would refuse them.
export function isHttps(baseUrl: string): boolean {
  return baseUrl.startsWith("https://");
}

export function sessionCookieName(baseUrl: string): string {
  return isHttps(baseUrl) ? "__Host-keyport.session" : "keyport.session";
}

export function cookieOptions(baseUrl: string) {
  return { httpOnly: true, sameSite: "lax" as const, path: "/", secure: isHttps(baseUrl) };
}
