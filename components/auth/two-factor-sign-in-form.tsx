"use client";

import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { twoFactorSignInAction } from "@/lib/web/actions/two-factor";

// The code step of a sign-in. A plain form post, so it works before (or without) JavaScript.
export function TwoFactorSignInForm() {
  const { pending, form, error, fieldError } = useActionForm(twoFactorSignInAction);
  return (
    <form {...form} className="flex flex-col gap-4" noValidate>
      <FormAlert message={error} />
      <Input
        label="Code"
        name="code"
        autoComplete="one-time-code"
        inputMode="text"
        required
        autoFocus
        hint="The 6-digit code from your authenticator app, or one of your recovery codes."
        error={fieldError("code")}
      />
      <Button type="submit" disabled={pending}>
        {pending ? "Checking…" : "Sign in"}
      </Button>
    </form>
  );
}
