import { z } from "zod";

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

export const emailSchema = z
  .string({ error: "Enter your email address." })
  .trim()
  .toLowerCase()
  .min(1, "Enter your email address.")
  .max(254, "That email address is too long.")
  .pipe(z.email("Enter a valid email address, like you@example.com."));

export const newPasswordSchema = z
  .string({ error: "Choose a password." })
  .min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters.`);

export const signUpSchema = z.object({ email: emailSchema, password: newPasswordSchema });

// Signing in checks only presence and the upper bound: the rules for new
// passwords may change, and old passwords must still work.
export const signInSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, "Enter your password.").max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters.`),
});
