"use client";

import { FormAlert } from "@/components/forms/form-alert";
import { FormDone } from "@/components/forms/form-done";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { requestPasswordResetAction } from "@/lib/web/actions/password";

// Posts to a server action, so it works without JavaScript. Once sent, the
// form gives way to the answer, which is the same for every address.
export function ForgotPasswordForm() {
  const { state, pending, form, error, fieldError, value } = useActionForm(requestPasswordResetAction);
  if (state?.ok) return <FormDone>{state.data}</FormDone>;
  return (
    <form {...form} className="flex flex-col gap-4" noValidate>
      <FormAlert message={error} />
      <Input
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        defaultValue={value("email")}
        error={fieldError("email")}
      />
      <Button type="submit" disabled={pending}>
        {pending ? "Sending…" : "Send a reset link"}
      </Button>
    </form>
  );
}
