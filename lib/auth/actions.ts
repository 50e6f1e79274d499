"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { failure, invalid, isForm, NOT_A_FORM, ok, type ActionResult, type ActionState } from "../action-result";
import { getEnv } from "../env";
import { log } from "../log";
import { signUp, verifyCredentials } from "./accounts";
import { carriesApiKey } from "./api-key-headers";
import { startBrowserSession } from "./browser-session";
import { clientIp } from "./client-ip";
import { signInSchema, signUpSchema } from "./credentials.schema";
import { actorFor, API_KEY_REFUSED_MESSAGE, requireActionSession } from "./guard";
import { endOtherSessions, endSession } from "./session-store";
import { BUSY_MESSAGE, PasswordCheckBusy } from "./password";
import { safeCallbackPath } from "./sign-in-params";

// The account's server actions. Sign-up is public (it refuses a request that
// carries an API key itself); the others need the session guard.

// A password never goes back to the browser, not even into its own form.
const SECRET_FIELDS = ["password"] as const;

/** Runs a password check; a full queue of them answers "try again in a moment" at once. */
async function busyAware<T>(check: () => Promise<T>): Promise<T | { ok: false; error: string; field?: undefined }> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof PasswordCheckBusy) return { ok: false, error: BUSY_MESSAGE };
    throw error;
  }
}

type CredentialsCheck = (
  email: string,
  password: string,
  ip: string,
) => Promise<{ ok: true; userId: string } | { ok: false; error: string; field?: "email" | undefined }>;

/**
 * What sign-up and sign-in share: refuse a request that carries an API key,
 * read the form, run the password work (a full queue answers "busy"), and on
 * success start the browser's session. Returns the refusal, or null once
 * signed in.
 */
async function signInWith(
  formData: FormData,
  schema: typeof signUpSchema | typeof signInSchema,
  check: CredentialsCheck,
): Promise<ActionResult | null> {
  const requestHeaders = await headers();
  if (carriesApiKey(requestHeaders)) return failure(API_KEY_REFUSED_MESSAGE, formData, { omit: SECRET_FIELDS });
  if (!isForm(formData)) return failure(NOT_A_FORM);
  const parsed = schema.safeParse({ email: formData.get("email"), password: formData.get("password") });
  if (!parsed.success) return invalid(parsed.error, formData, SECRET_FIELDS);
  const ip = clientIp(requestHeaders, getEnv().TRUST_PROXY);
  const result = await busyAware(() => check(parsed.data.email, parsed.data.password, ip));
  if (!result.ok) {
    const fieldErrors = result.field ? { [result.field]: [result.error] } : {};
    return failure(result.error, formData, { fieldErrors, omit: SECRET_FIELDS });
  }
  await startBrowserSession(result.userId, ip, requestHeaders.get("user-agent"));
  return null;
}

// POST sign-up: creates the account and signs the browser in, then goes to the
// dashboard. Works before JavaScript has loaded: the browser posts the form.
export async function signUpAction(_previous: ActionState, formData: FormData): Promise<ActionResult> {
  const refused = await signInWith(formData, signUpSchema, signUp);
  if (refused) return refused;
  redirect("/dashboard");
}

// POST sign-in with email and password: the same checks and lockout as
// before, then a session and its cookie, then the page the user asked for.
// A real POST even before hydration, so a password never lands in a URL.
export async function signInAction(_previous: ActionState, formData: FormData): Promise<ActionResult> {
  const refused = await signInWith(formData, signInSchema, verifyCredentials);
  if (refused) return refused;
  redirect(safeCallbackPath(String(formData.get("callbackUrl") ?? "")));
}

const endSessionSchema = z.object({ sessionId: z.string().min(1).max(64) });

// Ends one of the signed-in user's sessions (another user's id matches nothing).
export async function endSessionAction(
  _previous: ActionState<string>,
  formData: FormData,
): Promise<ActionResult<string>> {
  const guard = await requireActionSession();
  if (!guard.ok) return failure(guard.error, formData);
  if (!isForm(formData)) return failure(NOT_A_FORM);
  const parsed = endSessionSchema.safeParse({ sessionId: formData.get("sessionId") });
  if (!parsed.success) return failure("That session id is not valid.", formData);
  const ended = await endSession(await actorFor(guard.session), parsed.data.sessionId);
  if (!ended) return failure("That session was not found. It may have ended already.", formData);
  log.info("auth.session_ended", { user_id: guard.session.userId, session_id: parsed.data.sessionId });
  revalidatePath("/account");
  return ok("Session ended.");
}

// Ends every session of the user but the one making the request.
export async function endOtherSessionsAction(): Promise<ActionResult<string>> {
  const guard = await requireActionSession();
  if (!guard.ok) return failure(guard.error);
  const count = await endOtherSessions(await actorFor(guard.session), guard.session.id);
  log.info("auth.other_sessions_ended", { user_id: guard.session.userId, count });
  revalidatePath("/account");
  return ok(count === 1 ? "1 other session ended." : `${count} other sessions ended.`);
}
