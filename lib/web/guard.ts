import "server-only";
import { cookies, headers } from "next/headers";
import { cache } from "react";
import { forbidden, redirect } from "next/navigation";
import type { Actor } from "../audit";
import { getEnv } from "../env";
import { errorResponse } from "../errors/error-response";
import { carriesApiKey } from "../auth/api-key-headers";
import { clientIp } from "../auth/client-ip";
import { sessionCookieName } from "../auth/cookies";
import { readSession, type ActiveSession } from "../auth/session-store";

// The session guard: every dashboard page, server action and internal handler
// that needs a user goes through one of these. Each refuses on its own (it
// does not count on proxy.ts): a request that carries an API key, or has no
// valid session, gets no data and changes nothing.

export const API_KEY_REFUSED_MESSAGE =
  "API keys work only on the public API. This action needs a browser session: remove the key from the request.";
export const SESSION_REQUIRED_MESSAGE = "Your session has ended. Sign in again.";

// Read once per request: a dashboard render asks up to six times (layout, page, components), and a header built
// to be costly to read cost each of them (an attack review measured +25 to +42 ms a render). React's cache is
// per request on the server, and calls straight through outside one.
const requestCarriesApiKey = cache(async () => carriesApiKey(await headers()));

async function sessionFromCookies(): Promise<ActiveSession | null> {
  const store = await cookies();
  return readSession(store.get(sessionCookieName(getEnv().PUBLIC_BASE_URL))?.value);
}

/** For pages: a key gets 403 (forbidden()), no session a redirect to sign-in. */
export async function requirePageSession(returnTo: string): Promise<ActiveSession> {
  if (await requestCarriesApiKey()) forbidden();
  const session = await sessionFromCookies();
  if (!session) redirect(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  return session;
}

/** For server actions: a key or no session gives { ok: false, error } and nothing else. */
export async function requireActionSession(): Promise<
  { ok: true; session: ActiveSession } | { ok: false; error: string }
> {
  if (await requestCarriesApiKey()) return { ok: false, error: API_KEY_REFUSED_MESSAGE };
  const session = await sessionFromCookies();
  return session ? { ok: true, session } : { ok: false, error: SESSION_REQUIRED_MESSAGE };
}

/** For internal JSON handlers: 403 api_key_not_allowed or 401 session_required, in the catalog's shape. */
export async function requireApiSession(request: Request): Promise<ActiveSession | Response> {
  const refused = refuseApiKey(request.headers);
  if (refused) return refused;
  const session = await sessionFromCookies();
  return session ?? errorResponse("session_required", { baseUrl: getEnv().PUBLIC_BASE_URL });
}

/** The 403 for a key on an internal route, or null when the request carries none. */
export function refuseApiKey(requestHeaders: Headers): Response | null {
  return carriesApiKey(requestHeaders)
    ? errorResponse("api_key_not_allowed", { baseUrl: getEnv().PUBLIC_BASE_URL })
    : null;
}

/** The signed-in user, if any, for pages that show something either way (the header). */
export async function optionalSession(): Promise<ActiveSession | null> {
  if (await requestCarriesApiKey()) return null;
  return sessionFromCookies();
}

/** The signed-in user as the author of a change, with the request's IP and browser. */
export async function actorFor(session: ActiveSession): Promise<Actor> {
  const requestHeaders = await headers();
  return {
    userId: session.userId,
    ip: clientIp(requestHeaders, getEnv().TRUST_PROXY),
    userAgent: requestHeaders.get("user-agent"),
  };
}
