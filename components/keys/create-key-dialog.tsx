"use client";

import { useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { createKeyAction, type KeyActionData } from "@/lib/keys/actions";

const ENVIRONMENT_OPTIONS = [
  ["dev", "Development"],
  ["prod", "Production"],
] as const;

const EXPIRY_OPTIONS = [
  ["never", "Never"],
  ["30", "In 30 days"],
  ["90", "In 90 days"],
  ["date", "On a date…"],
] as const;

export function CreateKeyDialog({
  onClose,
  onDone,
  onCloseAutoFocus,
}: {
  onClose: () => void;
  onDone: (data: KeyActionData) => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const { pending, form, error, fieldError, value } = useActionForm(createKeyAction, { onSuccess: onDone });
  const [expiry, setExpiry] = useState(value("expiry") ?? "never");
  const environment = value("environment") ?? "dev";

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && !pending && onClose()}
      title="Create an API key"
      onCloseAutoFocus={onCloseAutoFocus}
    >
      <form {...form} className="flex flex-col gap-4" noValidate>
        <FormAlert message={error} />
        <Input
          label="Label"
          name="label"
          required
          maxLength={64}
          defaultValue={value("label")}
          hint="What uses this key, e.g. “billing service”."
          error={fieldError("label")}
        />
        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-medium">Environment</legend>
          {ENVIRONMENT_OPTIONS.map(([value, text]) => (
            <label key={value} className="flex min-h-8 items-center gap-2 text-sm">
              <input type="radio" name="environment" value={value} defaultChecked={environment === value} />
              <span>
                {text} (<code>sk_{value}_</code>)
              </span>
            </label>
          ))}
        </fieldset>
        <Select label="Expires" name="expiry" value={expiry} onValueChange={setExpiry} options={EXPIRY_OPTIONS} />
        {expiry === "date" && (
          <Input
            label="Expiry date (UTC)"
            name="expiryDate"
            type="date"
            required
            defaultValue={value("expiryDate")}
            error={fieldError("expiryDate")}
          />
        )}
        <DialogActions>
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {pending ? "Creating…" : "Create key"}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
