"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { failure, isForm, type ActionResult, type ActionState } from "../action-result";
import { carriesApiKey } from "./api-key-headers";
import { API_KEY_REFUSED_MESSAGE } from "./guard";
import { verifyCredentials } from "./accounts";
import { SECRET_FIELDS, withCredentials } from "./credential-form";
import { signInSchema } from "./credentials.schema";
import { safeCallbackPath } from "./sign-in-params";
import { startBrowserSession } from "./browser-session";
import { currentDevice } from "./device-cookie";
import { startPendingSignIn } from "./two-factor/pending-sign-in";
import { twoFactorEnabled } from "./two-factor/verify";

// POST sign-in with email and password: the same checks and lockout as
// before, then a session and its cookie, then the page the user asked for.
// A real POST even before hydration, so a password never lands in a URL.
export async function signInAction(_previous: ActionState, formData: FormData): Promise<ActionResult> {
  // Public: no session needed, but a request that carries an API key is refused.
  if (carriesApiKey(await headers())) return failure(API_KEY_REFUSED_MESSAGE, formData, { omit: SECRET_FIELDS });
  // Read only from a real form: a crafted body gets withCredentials' own refusal, not an error.
  const callbackUrl = safeCallbackPath(isForm(formData) ? String(formData.get("callbackUrl") ?? "") : "");
  let secondStep = false;
  const refused = await withCredentials(
    formData,
    signInSchema,
    // A browser that signed in to this email before is counted apart (lib/auth/device-cookie.ts).
    async (email, password, ip) => verifyCredentials(email, password, ip, await currentDevice(email)),
    async ({ userId, email }, ip, userAgent) => {
      // Two-factor on: no session yet, only the pending step the code page finishes.
      secondStep = await twoFactorEnabled(userId);
      if (secondStep) await startPendingSignIn(userId, ip, userAgent, callbackUrl);
      else await startBrowserSession({ id: userId, email }, ip, userAgent);
    },
  );
  if (refused) return refused;
  redirect(secondStep ? "/sign-in/two-factor" : callbackUrl);
}
