"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { failure, invalid, isForm, NOT_A_FORM, ok, type ActionResult, type ActionState } from "../action-result";
import { getEnv } from "../env";
import { carriesApiKey } from "./api-key-headers";
import { clientIp } from "./client-ip";
import { busyAware } from "./credential-form";
import { emailSchema, newPasswordSchemaFor, PASSWORD_MAX } from "./credentials.schema";
import { actorFor, API_KEY_REFUSED_MESSAGE, requireActionSession } from "./guard";
import { changePassword } from "./password-change";
import { findUsableReset, requestPasswordReset, RESET_REQUESTED_MESSAGE, resetPassword } from "./password-reset";

// Password actions: changing it from the account page (a session), and the
// two steps of "Forgot password?" (public, like sign-in: no session, but a
// request that carries an API key is refused). All three are real form posts,
// so they work before or without JavaScript.

// Passwords never travel back to the browser, not even into their own form.
const PASSWORD_FIELDS = ["currentPassword", "newPassword", "password"];

// POST the account page's change-password form.
export async function changePasswordAction(
  _previous: ActionState<string>,
  formData: FormData,
): Promise<ActionResult<string>> {
  const guard = await requireActionSession();
  if (!guard.ok) return failure(guard.error, formData, { omit: PASSWORD_FIELDS });
  if (!isForm(formData)) return failure(NOT_A_FORM);
  const parsed = z
    .object({
      currentPassword: z
        .string({ error: "Enter your current password." })
        .min(1, "Enter your current password.")
        .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters.`),
      newPassword: newPasswordSchemaFor([guard.session.email]),
    })
    .safeParse({ currentPassword: formData.get("currentPassword"), newPassword: formData.get("newPassword") });
  if (!parsed.success) return invalid(parsed.error, formData, PASSWORD_FIELDS);
  const actor = await actorFor(guard.session);
  const result = await busyAware(() =>
    changePassword({
      actor,
      email: guard.session.email,
      keepSessionId: guard.session.id,
      currentPassword: parsed.data.currentPassword,
      newPassword: parsed.data.newPassword,
    }),
  );
  if (!result.ok) {
    const fieldErrors = result.field ? { [result.field]: [result.error] } : {};
    return failure(result.error, formData, { fieldErrors, omit: PASSWORD_FIELDS });
  }
  revalidatePath("/account");
  const others = result.otherSessionsEnded;
  return ok(
    others === 0
      ? "Password changed."
      : `Password changed. ${others === 1 ? "1 other session was" : `${others} other sessions were`} signed out.`,
  );
}

// POST /forgot-password: the same answer whether or not the address has an account.
export async function requestPasswordResetAction(
  _previous: ActionState<string>,
  formData: FormData,
): Promise<ActionResult<string>> {
  const requestHeaders = await headers();
  if (carriesApiKey(requestHeaders)) return failure(API_KEY_REFUSED_MESSAGE, formData);
  if (!isForm(formData)) return failure(NOT_A_FORM);
  const parsed = z.object({ email: emailSchema }).safeParse({ email: formData.get("email") });
  if (!parsed.success) return invalid(parsed.error, formData);
  const ip = clientIp(requestHeaders, getEnv().TRUST_PROXY);
  const result = await requestPasswordReset(parsed.data.email, ip);
  if (result.outcome === "ip_limited") {
    const at = result.retryAt.toISOString().slice(11, 16);
    return failure(`Too many reset requests from your network. Try again at ${at} UTC.`, formData);
  }
  return ok(RESET_REQUESTED_MESSAGE);
}

// POST /reset-password: sets the new password, ends every session, and sends
// the browser to sign in with it (a reset never signs anyone in).
export async function resetPasswordAction(_previous: ActionState, formData: FormData): Promise<ActionResult> {
  const requestHeaders = await headers();
  if (carriesApiKey(requestHeaders)) return failure(API_KEY_REFUSED_MESSAGE, formData, { omit: PASSWORD_FIELDS });
  if (!isForm(formData)) return failure(NOT_A_FORM);
  const reset = await findUsableReset(formData.get("token"));
  if (!reset.ok) return failure(reset.error, formData, { omit: PASSWORD_FIELDS });
  const parsed = newPasswordSchemaFor([reset.email]).safeParse(formData.get("password"));
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "Choose another password.";
    return failure(message, formData, { fieldErrors: { password: [message] }, omit: PASSWORD_FIELDS });
  }
  const from = { ip: clientIp(requestHeaders, getEnv().TRUST_PROXY), userAgent: requestHeaders.get("user-agent") };
  const result = await busyAware(() => resetPassword(reset, parsed.data, from));
  if (!result.ok) return failure(result.error, formData, { omit: PASSWORD_FIELDS });
  redirect("/sign-in?reset=1");
}
