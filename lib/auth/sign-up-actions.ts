"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { failure, invalid, isForm, NOT_A_FORM, type ActionResult, type ActionState } from "../action-result";
import { getEnv } from "../env";
import { carriesApiKey } from "./api-key-headers";
import { startBrowserSession } from "./browser-session";
import { clientIp } from "./client-ip";
import { busyAware, SECRET_FIELDS, withCredentials } from "./credential-form";
import { PASSWORD_MAX, signUpSchema } from "./credentials.schema";
import { API_KEY_REFUSED_MESSAGE } from "./guard";
import { confirmSignUp, requestSignUp } from "./sign-up";

// Sign-up's two posts (lib/auth/sign-up.ts says why there are two). Both are
// public (no session), refuse a request that carries an API key, and work
// before or without JavaScript: the browser posts the form.

// POST /sign-up: the same answer for a new and a known address.
export async function signUpAction(_previous: ActionState, formData: FormData): Promise<ActionResult> {
  if (carriesApiKey(await headers())) return failure(API_KEY_REFUSED_MESSAGE, formData, { omit: SECRET_FIELDS });
  const refused = await withCredentials<{ ok: true }>(formData, signUpSchema, requestSignUp, async () => {});
  if (refused) return refused;
  redirect("/sign-up/check-inbox");
}

const confirmSchema = z.object({
  token: z.string().max(100),
  password: z
    .string({ error: "Type the password you chose." })
    .min(1, "Type the password you chose.")
    .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters.`),
});

// POST /sign-up/confirm: the link's token and the password typed again; then
// the account exists and the browser is signed in.
export async function confirmSignUpAction(_previous: ActionState, formData: FormData): Promise<ActionResult> {
  const requestHeaders = await headers();
  if (carriesApiKey(requestHeaders)) return failure(API_KEY_REFUSED_MESSAGE, formData, { omit: SECRET_FIELDS });
  if (!isForm(formData)) return failure(NOT_A_FORM);
  const parsed = confirmSchema.safeParse({ token: formData.get("token"), password: formData.get("password") });
  if (!parsed.success) return invalid(parsed.error, formData, SECRET_FIELDS);
  const ip = clientIp(requestHeaders, getEnv().TRUST_PROXY);
  const result = await busyAware(() => confirmSignUp(parsed.data.token, parsed.data.password, ip));
  if (!result.ok) {
    const fieldErrors = "field" in result && result.field ? { [result.field]: [result.error] } : {};
    return failure(result.error, formData, { fieldErrors, omit: SECRET_FIELDS });
  }
  await startBrowserSession({ id: result.userId, email: result.email }, ip, requestHeaders.get("user-agent"));
  redirect("/dashboard");
}
