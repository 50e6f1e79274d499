"use client";

import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { AlertDialog, AlertDialogCancel, DialogActions } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { reportLeakAction, revokeKeyAction, rotateKeyAction, type KeyActionData } from "@/lib/web/actions/keys";
import { DEFAULT_GRACE, GRACE_OPTIONS } from "@/lib/keys/grace";
import type { KeyActionKind } from "@/lib/keys/status";
import type { KeyTarget } from "./key-dialogs";

// Rotate, revoke and "this key leaked": each asks first, in an alert dialog
// that opens on Cancel (Enter on a fresh dialog changes nothing) and names
// the key in its title.

const COPY = {
  rotate: {
    title: (label: string) => `Rotate “${label}”`,
    description:
      "A new key with the same label, environment and expiry replaces this one. Choose when this key stops working.",
    submit: "Rotate key",
    danger: false,
    action: rotateKeyAction,
  },
  revoke: {
    title: (label: string) => `Revoke “${label}”`,
    description: "The key stops working on the very next request. This cannot be undone.",
    submit: "Revoke key",
    danger: true,
    action: revokeKeyAction,
  },
  leak: {
    title: (label: string) => `Report “${label}” leaked`,
    description:
      "The key is revoked at once, with no grace period, and a replacement is created for you to deploy (unless a rotation already made one).",
    submit: "Revoke and replace now",
    danger: true,
    action: reportLeakAction,
  },
} as const;

const REVOKE_ONLY_LEAK = {
  ...COPY.leak,
  description:
    "The key is revoked at once, with no grace period. No replacement is made for you: your role in this team, or its policy for production keys, keeps you from a new secret of this key. Its maker or an admin of the team makes the new one.",
  submit: "Revoke now",
};

export function KeyActionDialog({
  kind,
  target,
  onClose,
  onDone,
  onCloseAutoFocus,
}: {
  kind: KeyActionKind;
  target: KeyTarget;
  onClose: () => void;
  onDone: (data: KeyActionData) => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  // A leak report by someone who is not handed a new secret of this key revokes it only: the dialog says so first.
  const copy = kind === "leak" && target.replaceable === false ? REVOKE_ONLY_LEAK : COPY[kind];
  const { pending, form, error, fieldError, value } = useActionForm(copy.action, { onSuccess: onDone });

  return (
    <AlertDialog
      open
      onOpenChange={(open) => !open && !pending && onClose()}
      title={copy.title(target.label)}
      description={copy.description}
      onCloseAutoFocus={onCloseAutoFocus}
    >
      <form {...form} className="flex flex-col gap-4" noValidate>
        <FormAlert message={error} />
        <input type="hidden" name="keyId" value={target.id} />
        {kind === "rotate" && (
          <fieldset className="flex flex-col gap-2">
            <legend className="text-sm font-medium">The old key stops working</legend>
            {GRACE_OPTIONS.map((option) => (
              <label key={option.value} className="flex min-h-8 items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="grace"
                  value={option.value}
                  defaultChecked={option.value === (value("grace") ?? DEFAULT_GRACE)}
                />
                {option.label}
              </label>
            ))}
            <p className="text-xs text-zinc-600 dark:text-zinc-400">Never later than the key’s own expiry.</p>
          </fieldset>
        )}
        {kind === "revoke" && (
          <Input
            label="Reason (optional)"
            name="reason"
            maxLength={200}
            defaultValue={value("reason")}
            error={fieldError("reason")}
            hint="Shown in the activity log."
          />
        )}
        <DialogActions>
          <AlertDialogCancel asChild>
            <Button variant="secondary" disabled={pending}>
              Cancel
            </Button>
          </AlertDialogCancel>
          <Button type="submit" variant={copy.danger ? "danger" : "primary"} disabled={pending}>
            {pending ? "Working…" : copy.submit}
          </Button>
        </DialogActions>
      </form>
    </AlertDialog>
  );
}
