"use client";

import { useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { confirmTwoFactorAction, disableTwoFactorAction, startTwoFactorAction } from "@/lib/web/actions/two-factor";
import type { EnrolmentView } from "@/lib/auth/two-factor/enrolment";

// Two-factor sign-in on the account's two-factor page: start, scan, confirm
// with a code (then the recovery codes, once), or turn it off with a code.

export function StartTwoFactor() {
  const { state, pending, form } = useActionForm(startTwoFactorAction);
  return (
    <form {...form} className="flex flex-col items-start gap-2">
      <FormAlert message={state && !state.ok ? state.error : undefined} />
      <Button type="submit" disabled={pending}>
        Set up two-factor sign-in
      </Button>
    </form>
  );
}

export function ConfirmTwoFactor({ pending: setup }: { pending: NonNullable<EnrolmentView["pending"]> }) {
  const [codes, setCodes] = useState<string[] | null>(null);
  const { state, pending, form, error, fieldError } = useActionForm(confirmTwoFactorAction, { onSuccess: setCodes });
  const shown = codes ?? (state?.ok ? state.data : null);
  if (shown) return <RecoveryCodes codes={shown} />;
  return (
    <div className="flex flex-col gap-4">
      <ol className="list-decimal space-y-1 pl-5 text-sm">
        <li>Scan this code with an authenticator app (1Password, Google Authenticator, Authy…).</li>
        <li>Enter the 6-digit code it shows, to prove it works.</li>
      </ol>
      {/* A data: URL made on the server from the otpauth:// URI; the secret is also written out below. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img
        src={setup.qrDataUrl}
        width={240}
        height={240}
        alt="QR code for your authenticator app"
        data-testid="totp-qr"
        className="rounded-md border border-zinc-200 bg-white dark:border-zinc-700"
      />
      <p className="text-sm">
        Can’t scan it? Enter this key in the app:{" "}
        <code data-testid="totp-secret" className="break-all rounded bg-zinc-100 px-1 font-mono dark:bg-zinc-800">
          {setup.secret}
        </code>
      </p>
      <form {...form} className="flex max-w-sm flex-col gap-3" noValidate>
        <FormAlert message={error} />
        <Input
          label="Code from the app"
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          required
          error={fieldError("code")}
        />
        <Button type="submit" disabled={pending}>
          {pending ? "Checking…" : "Turn on two-factor sign-in"}
        </Button>
      </form>
    </div>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div role="status" className="flex flex-col gap-3">
      <p className="font-medium">Two-factor sign-in is on.</p>
      <p className="text-sm">
        Save these recovery codes somewhere safe (a password manager). Each one signs you in once if you lose your
        phone. They are shown only now.
      </p>
      <ul data-testid="recovery-codes" className="grid max-w-sm grid-cols-2 gap-2 font-mono text-sm">
        {codes.map((code) => (
          <li key={code} className="rounded bg-zinc-100 px-2 py-1 dark:bg-zinc-800">
            {code}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function DisableTwoFactor() {
  const { state, pending, form, error, fieldError } = useActionForm(disableTwoFactorAction);
  if (state?.ok) return <p role="status">{state.data}</p>;
  return (
    <form {...form} className="flex max-w-sm flex-col gap-3" noValidate>
      <FormAlert message={error} />
      <Input
        label="Code to turn it off"
        name="code"
        autoComplete="one-time-code"
        hint="A code from your app, or a recovery code."
        required
        error={fieldError("code")}
      />
      <Button type="submit" variant="danger" disabled={pending}>
        Turn off two-factor sign-in
      </Button>
    </form>
  );
}
