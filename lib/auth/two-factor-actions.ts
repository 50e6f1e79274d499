"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { failure, isForm, NOT_A_FORM, ok, type ActionResult, type ActionState } from "../action-result";
import { getEnv } from "../env";
import { log } from "../log";
import { tryAgainAt } from "./accounts";
import { carriesApiKey } from "./api-key-headers";
import { markAttemptSucceeded, recordAttempt, signInLockedUntilFor } from "./attempts";
import { startBrowserSession } from "./browser-session";
import { currentDevice } from "./device-cookie";
import { clientIp } from "./client-ip";
import { actorFor, API_KEY_REFUSED_MESSAGE, requireActionSession } from "./guard";
import { confirmEnrolment, disableTwoFactor, startEnrolment } from "./two-factor/enrolment";
import { currentPendingSignIn, finishPendingSignIn } from "./two-factor/pending-sign-in";
import { freshSignInRefusal, proveIdentity } from "./step-up";
import { verifySecondFactor } from "./two-factor/verify";

// Two-factor sign-in: the code step of a sign-in, and turning it on and off
// on the account page. Codes are never echoed back into a form.

const CODE_FIELDS = ["code"] as const;
const codeSchema = z.object({
  code: z.string().trim().min(1, "Enter the code from your app, or a recovery code.").max(40, "That code is too long."),
});
const WRONG_CODE = "That code is not right, or was used already. Try the newest code from your app.";
const EXPIRED_STEP = "This sign-in took too long. Enter your email and password again.";

// POST the code step of a sign-in: a wrong code counts toward the same
// lockout as a wrong password; the right one finishes the pending step and
// only then creates the session.
export async function twoFactorSignInAction(_previous: ActionState, formData: FormData): Promise<ActionResult> {
  const requestHeaders = await headers();
  if (carriesApiKey(requestHeaders)) return failure(API_KEY_REFUSED_MESSAGE, formData, { omit: CODE_FIELDS });
  if (!isForm(formData)) return failure(NOT_A_FORM);
  const pending = await currentPendingSignIn();
  if (!pending) return failure(EXPIRED_STEP);
  const parsed = codeSchema.safeParse({ code: formData.get("code") ?? "" });
  if (!parsed.success) return failure(parsed.error.issues[0]!.message, formData, { omit: CODE_FIELDS });
  const ip = clientIp(requestHeaders, getEnv().TRUST_PROXY);
  const email = pending.user.email;
  // Recorded as a failure before it is checked, like a password: racing guesses
  // see each other. A browser with a device cookie for this email is counted apart.
  const device = await currentDevice(email);
  const attempt = await recordAttempt("sign_in", email, ip, false, device);
  const lockedUntil = await signInLockedUntilFor(email, ip, device);
  if (lockedUntil) {
    log.warn("auth.sign_in.locked_out", { email, ip, step: "two_factor", retry_at: lockedUntil.toISOString() });
    return failure(tryAgainAt(lockedUntil), formData, { omit: CODE_FIELDS });
  }
  const factor = await verifySecondFactor(pending.userId, parsed.data.code);
  if (!factor) {
    log.info("auth.sign_in.failed", { email, ip, step: "two_factor" });
    return failure(WRONG_CODE, formData, { fieldErrors: { code: [WRONG_CODE] }, omit: CODE_FIELDS });
  }
  // Only one request finishes a pending step, however many carry a right code.
  if (!(await finishPendingSignIn(pending.id))) return failure(EXPIRED_STEP);
  await markAttemptSucceeded(attempt.id);
  await startBrowserSession({ id: pending.userId, email }, ip, requestHeaders.get("user-agent"));
  log.info("auth.sign_in.second_factor", { user_id: pending.userId, factor });
  redirect(pending.callbackUrl);
}

// Turning two-factor on or off needs a fresh sign-in (lib/auth/step-up.ts):
// otherwise a stolen session could turn it on with the thief's app, and the
// owner, even after resetting the password, could no longer sign in.

// Starts setting up two-factor: a new secret, shown on the page as a QR code.
export async function startTwoFactorAction(): Promise<ActionResult<string>> {
  const guard = await requireActionSession();
  if (!guard.ok) return failure(guard.error);
  const stale = await freshSignInRefusal(guard.session);
  if (stale) return stale;
  if (!(await startEnrolment(guard.session.userId))) return failure("Two-factor sign-in is already on.");
  revalidatePath("/account/two-factor");
  return ok("Scan the code with your authenticator app.");
}

// Confirms setup with a code: two-factor is on; the recovery codes come back once.
export async function confirmTwoFactorAction(
  _previous: ActionState<string[]>,
  formData: FormData,
): Promise<ActionResult<string[]>> {
  const guard = await requireActionSession();
  if (!guard.ok) return failure(guard.error, formData, { omit: CODE_FIELDS });
  if (!isForm(formData)) return failure(NOT_A_FORM);
  const stale = await freshSignInRefusal(guard.session, formData, CODE_FIELDS);
  if (stale) return stale;
  const parsed = codeSchema.safeParse({ code: formData.get("code") });
  if (!parsed.success) return failure(parsed.error.issues[0]!.message, formData, { omit: CODE_FIELDS });
  const codes = await confirmEnrolment(await actorFor(guard.session), guard.session.email, parsed.data.code);
  if (!codes) {
    const message = "That code does not match. Check the time on your phone and enter the newest code.";
    return failure(message, formData, { fieldErrors: { code: [message] }, omit: CODE_FIELDS });
  }
  log.info("auth.two_factor_enabled", { user_id: guard.session.userId });
  // No revalidation: the page must stay as it is, showing the recovery codes this once.
  return ok(codes);
}

// Turns two-factor off, with a current code or a recovery code. The code is
// checked as the step-up dialog checks one: a wrong one counts against this
// session, whose fifth wrong answer ends it, so it is no cheaper to guess here.
export async function disableTwoFactorAction(
  _previous: ActionState<string>,
  formData: FormData,
): Promise<ActionResult<string>> {
  const guard = await requireActionSession();
  if (!guard.ok) return failure(guard.error, formData, { omit: CODE_FIELDS });
  if (!isForm(formData)) return failure(NOT_A_FORM);
  const stale = await freshSignInRefusal(guard.session, formData, CODE_FIELDS);
  if (stale) return stale;
  const parsed = codeSchema.safeParse({ code: formData.get("code") ?? "" });
  if (!parsed.success) return failure(parsed.error.issues[0]!.message, formData, { omit: CODE_FIELDS });
  const proved = await proveIdentity(guard.session, { code: parsed.data.code }, await actorFor(guard.session));
  if (!proved.ok) {
    return failure(proved.error, formData, { fieldErrors: { code: [proved.error] }, omit: CODE_FIELDS });
  }
  await disableTwoFactor(await actorFor(guard.session), guard.session.email);
  log.info("auth.two_factor_disabled", { user_id: guard.session.userId });
  revalidatePath("/account");
  return ok("Two-factor sign-in is off.");
}
