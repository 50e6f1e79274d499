import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";
import { refuseApiKey } from "@/lib/auth/guard";

type Context = { params: Promise<{ nextauth: string[] }> };

// GET and POST /api/auth/* (next-auth: sign-in, sign-out, session, csrf).
// The guard refuses an API key here too, behind the proxy's own check.
async function handler(request: Request, context: Context) {
  const refused = refuseApiKey(request.headers);
  if (refused) return refused;
  // next-auth 4 reads params synchronously; Next 16 hands them over as a promise.
  const params = await context.params;
  return NextAuth(request as never, { params } as never, authOptions()) as Promise<Response>;
}

export { handler as GET, handler as POST };
