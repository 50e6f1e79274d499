import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { ConfirmSignUpForm } from "@/components/auth/confirm-sign-up-form";
import { FormAlert } from "@/components/forms/form-alert";
import { findUsableSignUp } from "@/lib/auth/sign-up";

export const metadata: Metadata = { title: "Finish creating your account", referrer: "strict-origin" };
// "strict-origin", not "no-referrer": the token in this URL never reaches any
// Referer, and the form's POST keeps its Origin (under "no-referrer" a browser
// sends `Origin: null`, and the cross-site check refuses the form).

// GET /sign-up/confirm?token=...: a dead link says so at once, with a way to
// start again; a good one asks for the password. Opening the page spends nothing.
export default async function ConfirmSignUpPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await connection(); // per request: the CSP nonce, and the token's state now
  const { token } = await searchParams;
  const pending = await findUsableSignUp(token);
  return (
    <>
      <h1 className="mb-6 text-2xl font-bold">Finish creating your account</h1>
      {pending.ok ? (
        <>
          <p className="mb-6 text-sm text-zinc-700 dark:text-zinc-300">
            For {pending.email}. Type the password you chose on the sign-up form: the link alone does not create the
            account.
          </p>
          <ConfirmSignUpForm token={String(token)} />
        </>
      ) : (
        <FormAlert message={pending.error}>
          {" "}
          <Link href="/sign-up">Sign up again</Link>.
        </FormAlert>
      )}
    </>
  );
}
