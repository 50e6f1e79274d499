"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { defineAction } from "../define-action";
import { startBrowserSession } from "../../auth/browser-session";
import { passed, SECRET_FIELDS } from "./credentials";
import { PASSWORD_MAX, signUpSchema } from "../../auth/credentials.schema";
import { confirmSignUp, requestSignUp } from "../../auth/sign-up";

// Sign-up's two posts (lib/auth/sign-up.ts says why there are two). Both are
// public (no session), go through the one action wrapper (lib/web/define-action.ts),
// which refuses a request that carries an API key, and work before or without
// JavaScript: the browser posts the form.

// POST /sign-up: the same answer for a new and a known address.
export const signUpAction = defineAction({
  access: "public",
  input: signUpSchema,
  secrets: SECRET_FIELDS,
  async run({ input, ip }): Promise<undefined> {
    passed(await requestSignUp(input.email, input.password, ip));
    redirect("/sign-up/check-inbox");
  },
});

const confirmSchema = z.object({
  token: z.string().max(100),
  password: z
    .string({ error: "Type the password you chose." })
    .min(1, "Type the password you chose.")
    .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters.`),
});

// POST /sign-up/confirm: the link's token and the password typed again; then
// the account exists and the browser is signed in.
export const confirmSignUpAction = defineAction({
  access: "public",
  input: confirmSchema,
  secrets: SECRET_FIELDS,
  async run({ input, ip, userAgent }): Promise<undefined> {
    const account = passed(await confirmSignUp(input.token, input.password, ip));
    await startBrowserSession({ id: account.userId, email: account.email }, ip, userAgent);
    redirect("/dashboard");
  },
});
