"use client";

import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { changePasswordAction } from "@/lib/web/actions/password";

export const NEW_PASSWORD_HINT = "At least 10 characters and hard to guess: a few uncommon words work well.";

// Posts to a server action, so it works without JavaScript too. Neither
// password ever comes back from the server; once changed, the fields clear.
export function ChangePasswordForm() {
  const { state, pending, form, error, fieldError } = useActionForm(changePasswordAction, {
    onSuccess: () => form.ref.current?.reset(),
  });
  return (
    <form {...form} className="flex max-w-md flex-col gap-4" noValidate>
      <FormAlert message={error} />
      <Input
        label="Current password"
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        required
        error={fieldError("currentPassword")}
      />
      <Input
        label="New password"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        required
        hint={NEW_PASSWORD_HINT}
        error={fieldError("newPassword")}
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Changing your password…" : "Change password"}
        </Button>
        <span role="status" className="text-sm">
          {state?.ok ? state.data : ""}
        </span>
      </div>
    </form>
  );
}
