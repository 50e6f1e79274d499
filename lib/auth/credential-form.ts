import "server-only";
import { headers } from "next/headers";
import { failure, invalid, isForm, NOT_A_FORM, type ActionResult } from "../action-result";
import { getEnv } from "../env";
import { carriesApiKey } from "./api-key-headers";
import { clientIp } from "./client-ip";
import { signInSchema, signUpSchema } from "./credentials.schema";
import { API_KEY_REFUSED_MESSAGE } from "./guard";
import { BUSY_MESSAGE, PasswordCheckBusy } from "./password";

// What the sign-up and sign-in forms share: refuse a key, read the form, run
// the password work (a full queue answers "busy"), then go on.

// A password never goes back to the browser, not even into its own form.
export const SECRET_FIELDS = ["password"] as const;

/** Runs a password check; a full queue of them answers "try again in a moment" at once. */
export async function busyAware<T>(
  check: () => Promise<T>,
): Promise<T | { ok: false; error: string; field?: undefined }> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof PasswordCheckBusy) return { ok: false, error: BUSY_MESSAGE };
    throw error;
  }
}

export type CredentialsCheck<R> = (
  email: string,
  password: string,
  ip: string,
) => Promise<({ ok: true } & R) | { ok: false; error: string; field?: "email" | undefined }>;

/** What happens once the check passed: a session, the second step of a two-factor sign-in, or nothing yet (sign-up). */
export type AfterCheck<R> = (result: R, ip: string, userAgent: string | null) => Promise<void>;

/**
 * What sign-up and sign-in share: refuse a request that carries an API key,
 * read the form, run the password work (a full queue answers "busy"), and on
 * success hand over to `then`. Returns the refusal, or null once done.
 */
export async function withCredentials<R>(
  formData: FormData,
  schema: typeof signUpSchema | typeof signInSchema,
  check: CredentialsCheck<R>,
  then: AfterCheck<R>,
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
  await then(result, ip, requestHeaders.get("user-agent"));
  return null;
}
