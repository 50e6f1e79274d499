"use client";

import { useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import {
  confirmTwoFactorAction,
  disableTwoFactorAction,
  replaceRecoveryCodesAction,
  startTwoFactorAction,
} from "@/lib/web/actions/two-factor";
import { useToast } from "@/components/ui/toast";
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

/** The recovery codes as a text file keeps them: one a line, with what they are for. */
function recoveryCodesText(codes: string[]): string {
  const made = new Date().toISOString().slice(0, 16).replace("T", " ");
  return `Keyport two-factor recovery codes, made ${made} UTC\nEach signs you in once if you lose your phone.\n\n${codes.join("\n")}\n`;
}

/** Shown once: the codes, to copy, download or print; each never wraps inside itself. */
function RecoveryCodes({ codes, replaced = false }: { codes: string[]; replaced?: boolean }) {
  const toast = useToast();
  const copy = async () => {
    await navigator.clipboard.writeText(codes.join("\n"));
    toast("Copied the 10 recovery codes.");
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([recoveryCodesText(codes)], { type: "text/plain;charset=utf-8" }));
    const link = Object.assign(document.createElement("a"), { href: url, download: "keyport-recovery-codes.txt" });
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div role="status" className="flex flex-col gap-3" data-print-only>
      <p className="font-medium">{replaced ? "New recovery codes made." : "Two-factor sign-in is on."}</p>
      <p className="text-sm">
        Save these recovery codes somewhere safe (a password manager). Each one signs you in once if you lose your
        phone. They are shown only now{replaced ? ", and the old ones no longer work" : ""}.
      </p>
      <ul
        data-testid="recovery-codes"
        className="grid max-w-sm grid-cols-1 gap-2 font-mono text-sm min-[360px]:grid-cols-2"
      >
        {codes.map((code) => (
          <li key={code} className="rounded bg-zinc-100 px-2 py-1 whitespace-nowrap dark:bg-zinc-800">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2 print:hidden">
        <Button variant="secondary" onClick={copy}>
          Copy all
        </Button>
        <Button variant="secondary" onClick={download}>
          Download (.txt)
        </Button>
        <Button variant="secondary" onClick={() => window.print()}>
          Print
        </Button>
      </div>
    </div>
  );
}

/** Makes ten new recovery codes (the old ones stop working), after a fresh sign-in; shows them once. */
export function ReplaceRecoveryCodes() {
  const [codes, setCodes] = useState<string[] | null>(null);
  const { state, pending, form, error } = useActionForm(replaceRecoveryCodesAction, { onSuccess: setCodes });
  const shown = codes ?? (state?.ok ? state.data : null);
  if (shown) return <RecoveryCodes codes={shown} replaced />;
  return (
    <form {...form} className="flex flex-col items-start gap-2">
      <FormAlert message={error} />
      <Button type="submit" variant="secondary" disabled={pending}>
        {pending ? "Making new codes…" : "Make new recovery codes"}
      </Button>
    </form>
  );
}

export function DisableTwoFactor() {
  // On success the action sends the browser to the page, which then says two-factor is off.
  const { pending, form, error, fieldError } = useActionForm(disableTwoFactorAction);
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
