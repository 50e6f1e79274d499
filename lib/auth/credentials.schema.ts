import { z } from "zod";
import { checkPasswordStrength } from "./password-strength";

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

export const emailSchema = z
  .string({ error: "Enter your email address." })
  .trim()
  .toLowerCase()
  .min(1, "Enter your email address.")
  .max(254, "That email address is too long.")
  .pipe(z.email("Enter a valid email address, like you@example.com."));

// Only the length: the strength check below needs to know whose password it is.
const passwordLengthSchema = z
  .string({ error: "Choose a password." })
  .min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters.`);

/** Refuses a guessable password, saying why (zxcvbn's warning and advice). Length is checked first, on its own. */
function refuseWeak(password: string, userInputs: readonly string[], ctx: z.RefinementCtx, path: string[] = []) {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) return;
  const strength = checkPasswordStrength(password, userInputs);
  if (!strength.ok) ctx.addIssue({ code: "custom", message: strength.reason, path });
}

/**
 * A new password (sign-up, change, reset, the admin CLI): 10 to 256
 * characters and not easy to guess. `userInputs` (the account's email) count
 * against it, so a password made from the address is refused.
 */
export function newPasswordSchemaFor(userInputs: readonly string[]) {
  return passwordLengthSchema.superRefine((password, ctx) => refuseWeak(password, userInputs, ctx));
}

export const newPasswordSchema = newPasswordSchemaFor([]);

export const signUpSchema = z
  .object({ email: emailSchema, password: passwordLengthSchema })
  .superRefine(({ email, password }, ctx) => refuseWeak(password, [email], ctx, ["password"]));

// Signing in checks only presence and the upper bound: the rules for new
// passwords may change, and old passwords must still work.
export const signInSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, "Enter your password.").max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters.`),
});
