"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { defineAction } from "../define-action";
import { DomainError } from "../../domain-error";
import { passed } from "./credentials";
import { emailSchema, newPasswordSchemaFor, PASSWORD_MAX } from "../../auth/credentials.schema";
import { actorFor } from "../guard";
import { changePassword } from "../../auth/password-change";
import {
  findUsableReset,
  requestPasswordReset,
  RESET_REQUESTED_MESSAGE,
  resetPassword,
} from "../../auth/password-reset";

// Password actions: changing it from the account page (a session), and the
// two steps of "Forgot password?" (public, like sign-in: no session, but a
// request that carries an API key is refused), each through the one action
// wrapper (lib/web/define-action.ts). All three are real form posts, so they work
// before or without JavaScript.

// Passwords never travel back to the browser, not even into their own form.
const PASSWORD_FIELDS = ["currentPassword", "newPassword", "password"];

// POST the account page's change-password form.
export const changePasswordAction = defineAction({
  access: "session",
  // The new password may not be guessable from the account's own email.
  input: (session) =>
    z.object({
      currentPassword: z
        .string({ error: "Enter your current password." })
        .min(1, "Enter your current password.")
        .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters.`),
      newPassword: newPasswordSchemaFor([session.email]),
    }),
  secrets: PASSWORD_FIELDS,
  async run({ input, session }) {
    const result = passed(
      await changePassword({
        actor: await actorFor(session),
        email: session.email,
        keepSessionId: session.id,
        currentPassword: input.currentPassword,
        newPassword: input.newPassword,
      }),
    );
    revalidatePath("/account");
    const others = result.otherSessionsEnded;
    return others === 0
      ? "Password changed."
      : `Password changed. ${others === 1 ? "1 other session was" : `${others} other sessions were`} signed out.`;
  },
});

// POST /forgot-password: the same answer whether or not the address has an account.
export const requestPasswordResetAction = defineAction({
  access: "public",
  input: z.object({ email: emailSchema }),
  async run({ input, ip }) {
    const result = await requestPasswordReset(input.email, ip);
    if (result.outcome === "ip_limited") {
      const at = result.retryAt.toISOString().slice(11, 16);
      throw new DomainError("rate_limited", `Too many reset requests from your network. Try again at ${at} UTC.`);
    }
    return RESET_REQUESTED_MESSAGE;
  },
});

// POST /reset-password: sets the new password, ends every session, and sends
// the browser to sign in with it (a reset never signs anyone in).
export const resetPasswordAction = defineAction({
  access: "public",
  // Both are checked once the link is found: the password's rules name the account's email.
  input: z.object({ token: z.unknown(), password: z.unknown() }),
  secrets: PASSWORD_FIELDS,
  async run({ input, ip, userAgent }): Promise<undefined> {
    const reset = passed(await findUsableReset(input.token));
    const password = newPasswordSchemaFor([reset.email]).safeParse(input.password);
    if (!password.success) {
      throw new DomainError("invalid_request", password.error.issues[0]?.message ?? "Choose another password.", {
        field: "password",
      });
    }
    passed(await resetPassword(reset, password.data, { ip, userAgent }));
    redirect("/sign-in?reset=1");
  },
});
