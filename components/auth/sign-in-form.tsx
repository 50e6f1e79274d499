"use client";

import Link from "next/link";
import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { signInAction } from "@/lib/web/actions/sign-in";
import { CredentialFields } from "./credential-fields";

// Posts to our own server action: it works before JavaScript has loaded, and
// an error keeps the email (the password stays in the field once hydrated).
export function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError?: string | undefined }) {
  const { pending, form, error, fieldError, value } = useActionForm(signInAction);
  return (
    <form {...form} className="flex flex-col gap-4" noValidate>
      <FormAlert message={error ?? initialError} />
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <CredentialFields
        email={value("email")}
        errors={{ email: fieldError("email"), password: fieldError("password") }}
      />
      <Button type="submit" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
      <Link href="/forgot-password" className="self-start text-sm underline">
        Forgot password?
      </Link>
    </form>
  );
}
