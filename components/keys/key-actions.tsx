"use client";

import Link from "next/link";
import { useActionState, useState, type ReactNode } from "react";
import {
  reportLeakAction,
  revokeKeyAction,
  rotateKeyAction,
  type KeyActionState,
} from "@/app/(dashboard)/dashboard/actions";
import { FormAlert } from "@/components/auth/form-alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import type { KeyStatus } from "@/lib/keys/status";
import { SecretReveal } from "./secret-reveal";

type Action = (state: KeyActionState, formData: FormData) => Promise<KeyActionState>;

interface ActionFormProps {
  action: Action;
  keyId: string;
  submitLabel: string;
  danger?: boolean | undefined;
  leaked?: boolean | undefined;
  children?: ReactNode;
}

// Each dialog stays mounted after its action changes the key's status (a
// rotated key is no longer "active"), so the new secret stays on screen until
// the user closes it; only the trigger button depends on the status.
function ActionDialog({
  available,
  trigger,
  title,
  description,
  ...form
}: ActionFormProps & { available: boolean; trigger: string; title: string; description: string }) {
  const [open, setOpen] = useState(false);
  const [round, setRound] = useState(0);
  return (
    <>
      {available && (
        <Button
          variant={form.danger ? "danger" : "secondary"}
          className="min-h-8 px-2 py-1 text-xs"
          onClick={() => setOpen(true)}
        >
          {trigger}
        </Button>
      )}
      <Dialog
        open={open}
        onClose={() => {
          setOpen(false);
          setRound((r) => r + 1);
        }}
        title={title}
        description={description}
      >
        <ActionForm key={round} {...form} />
      </Dialog>
    </>
  );
}

function ActionForm({ action, keyId, submitLabel, danger, leaked, children }: ActionFormProps) {
  const [state, formAction, pending] = useActionState<KeyActionState, FormData>(action, { ok: false });
  if (state.ok) {
    return (
      <div className="flex flex-col gap-4">
        <p role="status">{state.message}</p>
        {state.secret && <SecretReveal secret={state.secret} leaked={leaked} />}
        {leaked && !state.secret && (
          <p>
            Follow the <Link href="/docs/managing-keys#leaked-key-checklist">leaked-key checklist</Link>.
          </p>
        )}
      </div>
    );
  }
  return (
    <form action={formAction} className="flex flex-col gap-4">
      <FormAlert message={state.error} />
      <input type="hidden" name="keyId" value={keyId} />
      {children}
      <Button type="submit" variant={danger ? "danger" : "primary"} disabled={pending}>
        {pending ? "Working…" : submitLabel}
      </Button>
    </form>
  );
}

export function KeyActions({ keyId, label, status }: { keyId: string; label: string; status: KeyStatus }) {
  return (
    <div className="flex flex-wrap gap-2">
      <ActionDialog
        available={status === "active"}
        trigger="Rotate"
        title={`Rotate “${label}”`}
        description="A new key with the same label, environment and expiry replaces this one. Choose when this key stops working."
        action={rotateKeyAction}
        keyId={keyId}
        submitLabel="Rotate key"
      >
        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-medium">The old key stops working</legend>
          {[
            ["now", "Immediately"],
            ["1h", "In 1 hour"],
            ["24h", "In 24 hours"],
            ["7d", "In 7 days"],
          ].map(([value, text]) => (
            <label key={value} className="flex items-center gap-2 text-sm">
              <input type="radio" name="grace" value={value} defaultChecked={value === "24h"} /> {text}
            </label>
          ))}
          <p className="text-xs text-zinc-600 dark:text-zinc-400">Never later than the key’s own expiry.</p>
        </fieldset>
      </ActionDialog>
      <ActionDialog
        available={status !== "revoked"}
        trigger="Revoke"
        title={`Revoke “${label}”`}
        description="The key stops working on the very next request. This cannot be undone."
        action={revokeKeyAction}
        keyId={keyId}
        submitLabel="Revoke key"
        danger
      >
        <div className="flex flex-col gap-1">
          <label htmlFor={`reason-${keyId}`} className="text-sm font-medium">
            Reason (optional)
          </label>
          <input
            id={`reason-${keyId}`}
            name="reason"
            maxLength={200}
            className="min-h-10 rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          />
        </div>
      </ActionDialog>
      <ActionDialog
        available={status === "active" || status === "expiring"}
        trigger="This key leaked"
        title={`“${label}” leaked`}
        description="The key is revoked at once, with no grace period, and a replacement is created for you to deploy."
        action={reportLeakAction}
        keyId={keyId}
        submitLabel="Revoke and replace now"
        danger
        leaked
      />
    </div>
  );
}
