"use client";

import Link from "next/link";
import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { signUpAction } from "@/lib/auth/actions";
import { EMAIL_TAKEN_MESSAGE } from "@/lib/auth/sign-in-params";
import { CredentialFields } from "./credential-fields";

// Posts to a server action that creates the account and signs in: it works
// before (or without) JavaScript, and an error keeps the email (and, once
// hydrated, the password too: it never travels back from the server).
export function SignUpForm() {
  const { pending, form, error, fieldError, value } = useActionForm(signUpAction);
  return (
    <form {...form} className="flex flex-col gap-4" noValidate>
      <FormAlert message={error}>
        {error === EMAIL_TAKEN_MESSAGE && (
          <>
            {" "}
            <Link href="/sign-in">Sign in instead</Link>.
          </>
        )}
      </FormAlert>
      <CredentialFields
        email={value("email")}
        errors={{ email: fieldError("email"), password: fieldError("password") }}
        newPassword
      />
      <Button type="submit" disabled={pending}>
        {pending ? "Creating your account…" : "Create account"}
      </Button>
    </form>
  );
}
