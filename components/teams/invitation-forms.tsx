"use client";

import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { acceptInvitationAction, signUpFromInvitationAction } from "@/lib/web/actions/invitations";

// An invitation link's two forms. The token rides in a hidden field of a
// POST; on success the action opens the team (and, for a new account, signs
// the browser in first).

export function AcceptInvitationForm({ token, team }: { token: string; team: string }) {
  const { pending, form, error } = useActionForm(acceptInvitationAction);
  return (
    <form {...form} className="flex flex-col gap-4" noValidate>
      <FormAlert message={error} />
      <input type="hidden" name="token" value={token} />
      <Button type="submit" disabled={pending}>
        {pending ? "Joining…" : `Join ${team}`}
      </Button>
    </form>
  );
}

export function SignUpFromInvitationForm({
  token,
  email,
  passwordMin,
}: {
  token: string;
  email: string;
  /** The shortest password allowed (passed in: the schema's module carries the strength check's dictionary). */
  passwordMin: number;
}) {
  const { pending, form, error, fieldError } = useActionForm(signUpFromInvitationAction);
  return (
    <form {...form} className="flex flex-col gap-4" noValidate>
      <FormAlert message={fieldError("password") ? undefined : error} />
      <input type="hidden" name="token" value={token} />
      {/* For password managers: the account's address, which the invitation fixes. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <Input
        label="Choose a password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint={`At least ${passwordMin} characters, not one that is easy to guess.`}
        error={fieldError("password")}
      />
      <Button type="submit" disabled={pending}>
        {pending ? "Creating your account…" : "Create account and join"}
      </Button>
    </form>
  );
}
