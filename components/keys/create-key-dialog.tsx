"use client";

import { useActionState, useState } from "react";
import { createKeyAction, type KeyActionState } from "@/app/(dashboard)/dashboard/actions";
import { FormAlert } from "@/components/auth/form-alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { SecretReveal } from "./secret-reveal";

export function CreateKeyDialog() {
  const [open, setOpen] = useState(false);
  const [formKey, setFormKey] = useState(0);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Create key</Button>
      <Dialog
        open={open}
        onClose={() => {
          setOpen(false);
          setFormKey((k) => k + 1); // a fresh form, and the secret gone, next time
        }}
        title="Create an API key"
      >
        <CreateKeyForm key={formKey} onDone={() => setOpen(false)} />
      </Dialog>
    </>
  );
}

function CreateKeyForm({ onDone }: { onDone: () => void }) {
  const [state, action, pending] = useActionState<KeyActionState, FormData>(createKeyAction, { ok: false });
  const [expiry, setExpiry] = useState("never");
  if (state.ok && state.secret) {
    return (
      <div className="flex flex-col gap-4">
        <p>{state.message}</p>
        <SecretReveal secret={state.secret} />
        <Button variant="secondary" onClick={onDone}>
          Done
        </Button>
      </div>
    );
  }
  return (
    <form action={action} className="flex flex-col gap-4" noValidate>
      <FormAlert message={state.ok ? undefined : state.error} />
      <Input
        label="Label"
        name="label"
        required
        hint="What uses this key, e.g. “billing service”."
        error={state.fieldErrors?.label?.[0]}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium">Environment</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="environment" value="dev" defaultChecked /> Development (<code>sk_dev_</code>)
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="environment" value="prod" /> Production (<code>sk_prod_</code>)
        </label>
      </fieldset>
      <Select
        label="Expires"
        name="expiry"
        value={expiry}
        onChange={(event) => setExpiry(event.target.value)}
        options={[
          ["never", "Never"],
          ["30", "In 30 days"],
          ["90", "In 90 days"],
          ["date", "On a date…"],
        ]}
      />
      {expiry === "date" && (
        <Input
          label="Expiry date (UTC)"
          name="expiryDate"
          type="date"
          required
          error={state.fieldErrors?.expiryDate?.[0]}
        />
      )}
      <Button type="submit" disabled={pending}>
        {pending ? "Creating…" : "Create key"}
      </Button>
    </form>
  );
}
