import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { FormAlert } from "@/components/forms/form-alert";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";
import { findUsableReset } from "@/lib/auth/password-reset";

export const metadata: Metadata = { title: "Choose a new password", referrer: "strict-origin" };
// "strict-origin", not "no-referrer": the token in this URL never reaches any
// Referer, and the form's POST keeps its Origin (under "no-referrer" a browser
// sends `Origin: null`, and the cross-site check refuses the form).

// GET /reset-password?token=...: a dead link says so at once, with a way to
// ask again; a good one shows the form. Opening the page spends nothing.
export default async function ResetPasswordPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await connection(); // per request: the CSP nonce, and the token's state now
  const { token } = await searchParams;
  const reset = await findUsableReset(token);
  return (
    <>
      <h1 className="mb-6 text-2xl font-bold">Choose a new password</h1>
      {reset.ok ? (
        <>
          <p className="mb-6 text-sm text-zinc-700 dark:text-zinc-300">
            For {reset.email}. Every session of the account will be signed out, and you will sign in again with the new
            password.
          </p>
          <ResetPasswordForm token={String(token)} />
        </>
      ) : (
        <FormAlert message={reset.error}>
          {" "}
          <Link href="/forgot-password">Ask for a new link</Link>.
        </FormAlert>
      )}
    </>
  );
}
