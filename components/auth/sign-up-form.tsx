"use client";

import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { signUpAction } from "@/lib/web/actions/sign-up";
import { CredentialFields } from "./credential-fields";

// Posts to a server action that mails a link to finish (or, for a known
// address, a note that it has an account): it works before (or without)
// JavaScript, and an error keeps the email (and, once hydrated, the password
// too: it never travels back from the server).
export function SignUpForm() {
  const { pending, form, error, fieldError, value } = useActionForm(signUpAction);
  return (
    <form {...form} className="flex flex-col gap-4" noValidate>
      <FormAlert message={error} />
      <CredentialFields
        email={value("email")}
        errors={{ email: fieldError("email"), password: fieldError("password") }}
        newPassword
      />
      <Button type="submit" disabled={pending}>
        {pending ? "Sending…" : "Create account"}
      </Button>
    </form>
  );
}
