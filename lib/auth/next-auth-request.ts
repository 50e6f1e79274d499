import { normaliseCallbackUrl } from "./sign-in-params";

// next-auth 4 reads a callbackUrl from the query, a form body and its own
// cookie, and fails with a 500 (logging the input) on one it cannot parse.
// Every one is normalised to a URL on this deployment before it looks.

const CALLBACK_COOKIE = /^(__Secure-)?keyport\.callback-url$/;

function normaliseCookieHeader(cookie: string, baseUrl: string): string {
  return cookie
    .split(";")
    .map((part) => {
      const at = part.indexOf("=");
      const name = (at === -1 ? part : part.slice(0, at)).trim();
      if (!CALLBACK_COOKIE.test(name)) return part.trim();
      let value = part.slice(at + 1).trim();
      try {
        value = decodeURIComponent(value);
      } catch {
        value = "";
      }
      return `${name}=${encodeURIComponent(normaliseCallbackUrl(value, baseUrl))}`;
    })
    .join("; ");
}

export async function withSafeCallbackUrls(request: Request, baseUrl: string): Promise<Request> {
  const url = new URL(request.url);
  const callback = url.searchParams.get("callbackUrl");
  if (callback !== null) url.searchParams.set("callbackUrl", normaliseCallbackUrl(callback, baseUrl));
  const headers = new Headers(request.headers);
  const cookie = headers.get("cookie");
  if (cookie) headers.set("cookie", normaliseCookieHeader(cookie, baseUrl));
  let body: string | undefined;
  if (request.method === "POST") {
    body = await request.text();
    if ((headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded")) {
      const form = new URLSearchParams(body);
      const posted = form.get("callbackUrl");
      if (posted !== null) {
        form.set("callbackUrl", normaliseCallbackUrl(posted, baseUrl));
        body = form.toString();
        headers.delete("content-length");
      }
    }
  }
  return new Request(url, { method: request.method, headers, body });
}
