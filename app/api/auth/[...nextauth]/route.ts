import NextAuth from "next-auth";
import { refuseApiKey } from "@/lib/auth/guard";
import { withSafeCallbackUrls } from "@/lib/auth/next-auth-request";
import { authOptions } from "@/lib/auth/options";
import { BUSY_MESSAGE, BUSY_RETRY_AFTER_SECONDS, passwordHasher } from "@/lib/auth/password";
import { getEnv } from "@/lib/env";

type Context = { params: Promise<{ nextauth: string[] }> };

// GET and POST /api/auth/* (next-auth: GitHub sign-in, sign-out, session, csrf).
// The guard refuses an API key here too, behind the proxy's own check.
async function handler(request: Request, context: Context) {
  const refused = refuseApiKey(request.headers);
  if (refused) return refused;
  // A full queue of password checks: answer at once rather than wait behind it.
  if (
    request.method === "POST" &&
    new URL(request.url).pathname.endsWith("/callback/credentials") &&
    passwordHasher.saturated()
  ) {
    return new Response(BUSY_MESSAGE, {
      status: 503,
      headers: { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS), "Cache-Control": "no-store" },
    });
  }
  // next-auth 4 reads params synchronously; Next 16 hands them over as a promise.
  const params = await context.params;
  const safe = await withSafeCallbackUrls(request, getEnv().PUBLIC_BASE_URL);
  if (safe instanceof Response) return safe;
  return NextAuth(safe as never, { params } as never, authOptions()) as Promise<Response>;
}

export { handler as GET, handler as POST };
