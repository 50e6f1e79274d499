import "server-only";
import { cookies } from "next/headers";
import { getEnv } from "../env";
import { log } from "../log";
import { cookieOptions, sessionCookieName } from "./cookies";
import { rememberDevice } from "./device-cookie";
import { createSession } from "./session-store";

/**
 * Signs the browser in from a server action of ours: the Session row (with
 * its activity entry) and the same cookie next-auth reads, whose value is the
 * row's opaque token (lib/auth/options.ts decodes it by looking the row up);
 * and a new device cookie, so this browser can still sign in to this email
 * while someone else's guesses lock it (lib/auth/device-cookie.ts).
 */
export async function startBrowserSession(user: { id: string; email: string }, ip: string, userAgent: string | null) {
  const userId = user.id;
  const session = await createSession(userId, ip, userAgent);
  const baseUrl = getEnv().PUBLIC_BASE_URL;
  (await cookies()).set(sessionCookieName(baseUrl), session.sessionToken, {
    ...cookieOptions(baseUrl),
    expires: session.expires,
  });
  await rememberDevice(user.email);
  log.info("auth.sign_in", { user_id: userId, session_id: session.id });
}
