import NextAuth from "next-auth";
import { refuseApiKey } from "@/lib/web/guard";
import { withSafeCallbackUrls } from "@/lib/auth/next-auth-request";
import { authOptions } from "@/lib/auth/options";
import { getEnv } from "@/lib/env";

type Context = { params: Promise<{ nextauth: string[] }> };

// GET and POST /api/auth/* (next-auth: GitHub sign-in, sign-out, session, csrf). There is no
// password endpoint here: /api/auth/callback/credentials signs nobody in.
// The guard refuses an API key here too, behind the proxy's own check.
async function handler(request: Request, context: Context) {
  const refused = refuseApiKey(request.headers);
  if (refused) return refused;
  // next-auth 4 reads params synchronously; Next 16 hands them over as a promise.
  const params = await context.params;
  const safe = await withSafeCallbackUrls(request, getEnv().PUBLIC_BASE_URL);
  if (safe instanceof Response) return safe;
  return NextAuth(safe as never, { params } as never, authOptions()) as Promise<Response>;
}

export { handler as GET, handler as POST };
