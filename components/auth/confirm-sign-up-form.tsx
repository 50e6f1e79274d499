"use client";

import Link from "next/link";
import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { confirmSignUpAction } from "@/lib/web/actions/sign-up";
import { SIGN_UP_ALREADY_DONE_MESSAGE } from "@/lib/auth/sign-up-messages";

// The token rides in a hidden field of a POST. On success the action signs
// the browser in and goes to the dashboard.
export function ConfirmSignUpForm({ token }: { token: string }) {
  const { pending, form, error, fieldError } = useActionForm(confirmSignUpAction);
  const linkDead = error !== undefined && fieldError("password") === undefined;
  return (
    <form {...form} className="flex flex-col gap-4" noValidate>
      <FormAlert message={error}>
        {linkDead && (
          <>
            {" "}
            {error === SIGN_UP_ALREADY_DONE_MESSAGE ? (
              <Link href="/sign-in">Sign in</Link>
            ) : (
              <Link href="/sign-up">Sign up again</Link>
            )}
            .
          </>
        )}
      </FormAlert>
      <input type="hidden" name="token" value={token} />
      <Input
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        hint="The password you chose on the sign-up form."
        error={fieldError("password")}
      />
      <Button type="submit" disabled={pending}>
        {pending ? "Creating your account…" : "Create account"}
      </Button>
    </form>
  );
}
