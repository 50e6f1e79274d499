"use client";

import Link from "next/link";
import { NEW_PASSWORD_HINT } from "@/components/account/change-password-form";
import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { resetPasswordAction } from "@/lib/web/actions/password";

// The token rides in a hidden field of a POST, never in a request the form
// makes on its own. On success the action redirects to sign-in.
export function ResetPasswordForm({ token }: { token: string }) {
  const { pending, form, error, fieldError } = useActionForm(resetPasswordAction);
  const linkDead = error !== undefined && fieldError("password") === undefined;
  return (
    <form {...form} className="flex flex-col gap-4" noValidate>
      <FormAlert message={error}>
        {linkDead && (
          <>
            {" "}
            <Link href="/forgot-password">Ask for a new link</Link>.
          </>
        )}
      </FormAlert>
      <input type="hidden" name="token" value={token} />
      <Input
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint={NEW_PASSWORD_HINT}
        error={fieldError("password")}
      />
      <Button type="submit" disabled={pending}>
        {pending ? "Setting your password…" : "Set new password"}
      </Button>
    </form>
  );
}
