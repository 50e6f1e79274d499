"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { defineAction } from "../define-action";
import { DomainError } from "../../domain-error";
import { log } from "../../log";
import { tryAgainAt } from "../../auth/accounts";
import { markAttemptSucceeded, recordAttempt, signInLockedUntilFor } from "../../auth/attempts";
import { startBrowserSession } from "../../auth/browser-session";
import { currentDevice } from "../../auth/device-cookie";
import { actorFor } from "../guard";
import {
  confirmEnrolment,
  disableTwoFactor,
  replaceRecoveryCodes,
  startEnrolment,
} from "../../auth/two-factor/enrolment";
import { currentPendingSignIn, finishPendingSignIn } from "../../auth/two-factor/pending-sign-in";
import { proveIdentity } from "../../auth/step-up";
import { verifySecondFactor } from "../../auth/two-factor/verify";

// Two-factor sign-in: the code step of a sign-in, and turning it on and off
// on the account page, each through the one action wrapper (lib/web/define-action.ts).
// Codes are never echoed back into a form.

const CODE_FIELDS = ["code"] as const;
const codeSchema = z.object({
  code: z
    .string({ error: "Enter the code from your app, or a recovery code." })
    .trim()
    .min(1, "Enter the code from your app, or a recovery code.")
    .max(40, "That code is too long."),
});
// Setting up, there are no recovery codes yet: only the app's code, 6 digits (spaces as some apps show it are fine).
const ENTER_APP_CODE = "Enter the 6-digit code your authenticator app shows.";
const enrolmentCodeSchema = z.object({
  code: z
    .string({ error: ENTER_APP_CODE })
    .transform((code) => code.replace(/\s+/g, ""))
    .pipe(
      z
        .string()
        .min(1, { message: ENTER_APP_CODE, abort: true })
        .regex(/^\d{6}$/, "A code is 6 digits: enter the one your app shows now."),
    ),
});
const WRONG_CODE = "That code is not right, or was used already. Try the newest code from your app.";
const EXPIRED_STEP = "This sign-in took too long. Enter your email and password again.";
const refused = (message: string, field?: string) =>
  new DomainError("invalid_request", message, field ? { field } : {});

// POST the code step of a sign-in: a wrong code counts toward the same
// lockout as a wrong password; the right one finishes the pending step and
// only then creates the session.
export const twoFactorSignInAction = defineAction({
  access: "public",
  input: codeSchema,
  secrets: CODE_FIELDS,
  async run({ input, ip, userAgent }): Promise<undefined> {
    const pending = await currentPendingSignIn();
    if (!pending) throw refused(EXPIRED_STEP);
    const email = pending.user.email;
    // Recorded as a failure before it is checked, like a password: racing guesses
    // see each other. A browser with a device cookie for this email is counted apart.
    const device = await currentDevice(email);
    const attempt = await recordAttempt("sign_in", email, ip, false, device);
    const lockedUntil = await signInLockedUntilFor(email, ip, device);
    if (lockedUntil) {
      log.warn("auth.sign_in.locked_out", { email, ip, step: "two_factor", retry_at: lockedUntil.toISOString() });
      throw refused(tryAgainAt(lockedUntil));
    }
    const factor = await verifySecondFactor(pending.userId, input.code);
    if (!factor) {
      log.info("auth.sign_in.failed", { email, ip, step: "two_factor" });
      throw refused(WRONG_CODE, "code");
    }
    // Only one request finishes a pending step, however many carry a right code.
    if (!(await finishPendingSignIn(pending.id))) throw refused(EXPIRED_STEP);
    await markAttemptSucceeded(attempt.id);
    await startBrowserSession({ id: pending.userId, email }, ip, userAgent);
    log.info("auth.sign_in.second_factor", { user_id: pending.userId, factor });
    redirect(pending.callbackUrl);
  },
});

// Turning two-factor on or off needs a fresh sign-in (lib/auth/step-up.ts):
// otherwise a stolen session could turn it on with the thief's app, and the
// owner, even after resetting the password, could no longer sign in.

// Starts setting up two-factor: a new secret, shown on the page as a QR code.
export const startTwoFactorAction = defineAction({
  access: "session",
  input: z.object({}),
  stepUp: true,
  async run({ session }) {
    if (!(await startEnrolment(session.userId))) throw refused("Two-factor sign-in is already on.");
    revalidatePath("/account/two-factor");
    return "Scan the code with your authenticator app.";
  },
});

// Confirms setup with a code: two-factor is on; the recovery codes come back once.
export const confirmTwoFactorAction = defineAction({
  access: "session",
  input: enrolmentCodeSchema,
  secrets: CODE_FIELDS,
  stepUp: true,
  async run({ input, session }) {
    const codes = await confirmEnrolment(await actorFor(session), session.email, input.code);
    if (!codes)
      throw refused("That code does not match. Check the time on your phone and enter the newest code.", "code");
    log.info("auth.two_factor_enabled", { user_id: session.userId });
    // No revalidation: the page must stay as it is, showing the recovery codes this once.
    return codes;
  },
});

// Replaces the recovery codes with ten new ones, shown once; the old ones stop working and the owner is mailed.
// Behind a fresh sign-in, which with two-factor on takes a code: a stolen session alone cannot make codes for itself.
export const replaceRecoveryCodesAction = defineAction({
  access: "session",
  input: z.object({}),
  stepUp: true,
  async run({ session }) {
    const codes = await replaceRecoveryCodes(await actorFor(session), session.email);
    if (!codes) throw refused("Two-factor sign-in is off: there are no recovery codes to replace.");
    log.info("auth.recovery_codes_replaced", { user_id: session.userId });
    // No revalidation: the page must stay as it is, showing the new codes this once.
    return codes;
  },
});

/** Where turning two-factor off lands: the page, saying it is off. */
const TWO_FACTOR_TURNED_OFF_PATH = "/account/two-factor?turned=off";

// Turns two-factor off, with a current code or a recovery code. The code is
// checked as the step-up dialog checks one: a wrong one counts against this
// session, whose fifth wrong answer ends it, so it is no cheaper to guess here.
export const disableTwoFactorAction = defineAction({
  access: "session",
  input: codeSchema,
  secrets: CODE_FIELDS,
  stepUp: true,
  async run({ input, session }) {
    const proved = await proveIdentity(session, { code: input.code }, await actorFor(session));
    if (!proved.ok) throw refused(proved.error, "code");
    await disableTwoFactor(await actorFor(session), session.email);
    log.info("auth.two_factor_disabled", { user_id: session.userId });
    revalidatePath("/account");
    // The page says so once it is drawn again without this form (a new user's walk: nothing confirmed it).
    redirect(TWO_FACTOR_TURNED_OFF_PATH);
  },
});
