"use server";

import { redirect } from "next/navigation";
import { defineAction } from "../define-action";
import { verifyCredentials } from "../../auth/accounts";
import { startBrowserSession } from "../../auth/browser-session";
import { passed, SECRET_FIELDS } from "./credentials";
import { signInSchema } from "../../auth/credentials.schema";
import { currentDevice } from "../../auth/device-cookie";
import { safeCallbackPath } from "../../auth/sign-in-params";
import { startPendingSignIn } from "../../auth/two-factor/pending-sign-in";
import { twoFactorEnabled } from "../../auth/two-factor/verify";

// POST sign-in with email and password: the same checks and lockout as
// before, then a session and its cookie, then the page the user asked for.
// A real POST even before hydration, so a password never lands in a URL.
// Public (no session), through the one action wrapper (lib/web/define-action.ts),
// which refuses a request that carries an API key.
export const signInAction = defineAction({
  access: "public",
  input: signInSchema,
  secrets: SECRET_FIELDS,
  async run({ input, formData, ip, userAgent }): Promise<undefined> {
    const callbackUrl = safeCallbackPath(String(formData.get("callbackUrl") ?? ""));
    // A browser that signed in to this email before is counted apart (lib/auth/device-cookie.ts).
    const device = await currentDevice(input.email);
    const { userId, email } = passed(await verifyCredentials(input.email, input.password, ip, device));
    // Two-factor on: no session yet, only the pending step the code page finishes.
    const secondStep = await twoFactorEnabled(userId);
    if (secondStep) await startPendingSignIn(userId, ip, userAgent, callbackUrl);
    else await startBrowserSession({ id: userId, email }, ip, userAgent);
    redirect(secondStep ? "/sign-in/two-factor" : callbackUrl);
  },
});
