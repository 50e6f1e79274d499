import "server-only";
import { cookies } from "next/headers";
import { NextRequest } from "next/server";
import { cookieOptions } from "./cookies";
import { normaliseCallbackUrl } from "./sign-in-params";

// next-auth 4 reads a callbackUrl from the query, a form body and its own
// cookie, and fails with a 500 (logging the input) on one it cannot parse.
// Each is normalised to a URL on this deployment before it looks. next-auth
// reads the query from `nextUrl` (so it gets a NextRequest) and cookies from
// next/headers (so the cookie is rewritten there, which also fixes it in the
// browser).

const CALLBACK_COOKIE = /^(__Secure-)?keyport\.callback-url$/;

async function normaliseCallbackCookie(baseUrl: string) {
  const store = await cookies();
  for (const cookie of store.getAll()) {
    if (!CALLBACK_COOKIE.test(cookie.name)) continue;
    const safe = normaliseCallbackUrl(cookie.value, baseUrl);
    if (safe !== cookie.value) store.set(cookie.name, safe, cookieOptions(baseUrl));
  }
}

/**
 * The request next-auth may see, or the answer to one it must not: a POST
 * that is not a urlencoded form (its own forms always are; it fails with a
 * 500 on a JSON body it cannot parse) is 415.
 */
export async function withSafeCallbackUrls(request: Request, baseUrl: string): Promise<NextRequest | Response> {
  await normaliseCallbackCookie(baseUrl);
  const url = new URL(request.url);
  const callback = url.searchParams.get("callbackUrl");
  if (callback !== null) url.searchParams.set("callbackUrl", normaliseCallbackUrl(callback, baseUrl));
  const headers = new Headers(request.headers);
  let body: string | undefined;
  if (request.method === "POST") {
    const type = (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/x-www-form-urlencoded") {
      return new Response("Send the form as application/x-www-form-urlencoded.", {
        status: 415,
        headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
      });
    }
    const form = new URLSearchParams(await request.text());
    const posted = form.get("callbackUrl");
    if (posted !== null) form.set("callbackUrl", normaliseCallbackUrl(posted, baseUrl));
    body = form.toString();
    headers.set("content-type", "application/x-www-form-urlencoded");
    headers.delete("content-length");
  }
  return new NextRequest(url, { method: request.method, headers, body });
}
