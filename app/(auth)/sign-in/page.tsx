import type { Metadata } from "next";
import { FormDone } from "@/components/forms/form-done";
import Link from "next/link";
import { cookies } from "next/headers";
import { connection } from "next/server";
import { SignInForm } from "@/components/auth/sign-in-form";
import { GitHubSignIn } from "@/components/auth/github-sign-in";
import { SessionEndedNotice } from "@/components/auth/session-ended-notice";
import { sessionCookieName } from "@/lib/auth/cookies";
import { endedSessionNotice } from "@/lib/auth/session-store";
import { knownSignInError, safeCallbackPath } from "@/lib/auth/sign-in-params";
import { getEnv } from "@/lib/env";

export const metadata: Metadata = { title: "Sign in" };

const PASSWORD_RESET_NOTICE = "Your password was changed. Sign in with the new one.";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await connection(); // per request: the CSP nonce
  const params = await searchParams;
  const error = knownSignInError(params.error);
  const env = getEnv();
  // A browser whose session was ended from another device still holds its
  // cookie: say why it was signed out.
  const token = (await cookies()).get(sessionCookieName(env.PUBLIC_BASE_URL))?.value;
  const ended = await endedSessionNotice(token);
  return (
    <>
      <h1 className="mb-6 text-2xl font-bold">Sign in</h1>
      {params.reset === "1" && <FormDone className="mb-6">{PASSWORD_RESET_NOTICE}</FormDone>}
      {ended && !params.reset && <SessionEndedNotice notice={{ reason: ended.reason, endedAt: ended.endedAt }} />}
      <SignInForm callbackUrl={safeCallbackPath(params.callbackUrl)} initialError={error} />
      {env.GITHUB_ID && env.GITHUB_SECRET && <GitHubSignIn />}
      <p className="mt-6 text-sm">
        New to Keyport?{" "}
        <Link href="/sign-up" className="underline">
          Create an account
        </Link>
      </p>
    </>
  );
}
