"use client";

import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { signInAction } from "@/lib/auth/actions";

// Posts to our own server action: it works before JavaScript has loaded, and
// an error keeps the email (the password stays in the field once hydrated).
export function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError?: string | undefined }) {
  const { pending, form, error, fieldError, value } = useActionForm(signInAction);
  return (
    <form {...form} className="flex flex-col gap-4" noValidate>
      <FormAlert message={error ?? initialError} />
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <Input
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        defaultValue={value("email")}
        error={fieldError("email")}
      />
      <Input
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        error={fieldError("password")}
      />
      <Button type="submit" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
