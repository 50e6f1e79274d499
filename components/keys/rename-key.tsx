"use client";

import { useEffect, useRef, useState } from "react";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { renameKeyAction } from "@/lib/web/actions/keys";

/** The key page's title, renamed in place. Focus comes back to "Rename" after saving or cancelling (Escape too). */
export function RenameKey({ keyId, label }: { keyId: string; label: string }) {
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  // Focus goes back to "Rename" once the button is on the page again (after React's commit, not before).
  const focusBack = useRef(false);
  useEffect(() => {
    if (editing || !focusBack.current) return;
    focusBack.current = false;
    renameButton.current?.focus();
  }, [editing, label]);
  const stopEditing = () => {
    focusBack.current = true;
    setEditing(false);
  };
  const { pending, form, error, value } = useActionForm(renameKeyAction, {
    onSuccess: (data) => {
      toast(data.message);
      stopEditing();
    },
  });

  if (!editing) {
    return (
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <h1 className="min-w-0 text-2xl font-bold wrap-anywhere" tabIndex={-1}>
          {label}
        </h1>
        <Button
          ref={renameButton}
          variant="ghost"
          className="min-h-8 px-2 py-1 text-sm"
          onClick={() => setEditing(true)}
          aria-label={`Rename “${label}”`}
        >
          Rename
        </Button>
      </div>
    );
  }
  return (
    <form {...form} className="flex flex-col gap-1" noValidate>
      <input type="hidden" name="keyId" value={keyId} />
      <label className="text-sm font-medium" htmlFor={`label-${keyId}`}>
        New label for “{label}”
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={`label-${keyId}`}
          name="label"
          defaultValue={value("label") ?? label}
          maxLength={64}
          autoFocus
          // Escape cancels, as it closes a dialog.
          onKeyDown={(event) => {
            if (event.key === "Escape") {
              event.preventDefault();
              stopEditing();
            }
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `label-${keyId}-error` : undefined}
          className="min-h-10 w-full max-w-xs min-w-0 rounded-md border border-zinc-300 bg-white px-3 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        />
        <Button type="submit" disabled={pending}>
          Save
        </Button>
        <Button variant="secondary" onClick={stopEditing}>
          Cancel
        </Button>
      </div>
      {error && (
        <p id={`label-${keyId}-error`} role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </form>
  );
}
