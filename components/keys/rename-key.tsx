"use client";

import { useActionState, useState } from "react";
import { renameKeyAction, type KeyActionState } from "@/app/(dashboard)/dashboard/actions";
import { Button } from "@/components/ui/button";

/** The label, renamed in place. */
export function RenameKey({ keyId, label }: { keyId: string; label: string }) {
  const [state, action, pending] = useActionState<KeyActionState, FormData>(renameKeyAction, { ok: false });
  // The action state when editing began: a newer successful state closes the form.
  const [openedAt, setOpenedAt] = useState<KeyActionState | null>(null);
  const editing = openedAt !== null && !(state.ok && state !== openedAt);
  const setEditing = (on: boolean) => setOpenedAt(on ? state : null);

  if (!editing) {
    return (
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{label}</span>
        <Button
          variant="ghost"
          className="min-h-8 px-2 py-1 text-xs"
          onClick={() => setEditing(true)}
          aria-label={`Rename ${label}`}
        >
          Rename
        </Button>
      </div>
    );
  }
  return (
    <form action={action} className="flex flex-col gap-1">
      <input type="hidden" name="keyId" value={keyId} />
      <label className="sr-only" htmlFor={`label-${keyId}`}>
        New label for {label}
      </label>
      <div className="flex gap-2">
        <input
          id={`label-${keyId}`}
          name="label"
          defaultValue={label}
          autoFocus
          aria-invalid={state.error ? true : undefined}
          className="min-h-8 w-40 rounded-md border border-zinc-300 bg-white px-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        />
        <Button type="submit" className="min-h-8 px-2 py-1 text-xs" disabled={pending}>
          Save
        </Button>
        <Button variant="ghost" className="min-h-8 px-2 py-1 text-xs" onClick={() => setEditing(false)}>
          Cancel
        </Button>
      </div>
      {state.error && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {state.error}
        </p>
      )}
    </form>
  );
}
