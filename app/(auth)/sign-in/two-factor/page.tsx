import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { TwoFactorSignInForm } from "@/components/auth/two-factor-sign-in-form";
import { currentPendingSignIn } from "@/lib/auth/two-factor/pending-sign-in";

export const metadata: Metadata = { title: "Two-factor sign-in" };

// GET /sign-in/two-factor: the second step of a sign-in whose password was
// right. Public like the sign-in page: the pending step in the browser's
// cookie is what it works on, and the action checks it again.
export default async function TwoFactorSignInPage() {
  await connection(); // per request: the CSP nonce and the pending step
  const pending = await currentPendingSignIn();
  return (
    <>
      <h1 className="mb-6 text-2xl font-bold">Two-factor sign-in</h1>
      {pending ? (
        <>
          <p className="mb-4 text-sm text-zinc-700 dark:text-zinc-300">
            Signing in as {pending.user.email}. Open your authenticator app and enter the code it shows for Keyport.
          </p>
          <TwoFactorSignInForm />
        </>
      ) : (
        <p className="text-sm">
          This sign-in has expired (it lasts 10 minutes).{" "}
          <Link href="/sign-in" className="underline">
            Sign in again
          </Link>
          .
        </p>
      )}
    </>
  );
}
