"use client";

import { useTeam } from "@/components/teams/team-context";
import { keyPath } from "@/lib/web/team-paths";
import Link from "next/link";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { AlertDialog, DialogActions } from "@/components/ui/dialog";
import type { KeyActionData } from "@/lib/web/actions/keys";

export type Reveal = KeyActionData & { leaked: boolean };

/**
 * The one time a key's secret is shown. It stays until the user has copied
 * it or says it is saved; Escape or Close first asks whether to discard it.
 * Nothing keeps the secret once this dialog is gone.
 */
export function SecretDialog({
  reveal,
  onClose,
  onCloseAutoFocus,
}: {
  reveal: Reveal;
  onClose: () => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const { secret, leaked } = reveal;
  const { slug } = useTeam();
  const fieldId = useId();
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");
  const [ticked, setTicked] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const saved = !secret || copy === "copied" || ticked;

  async function copySecret() {
    try {
      await navigator.clipboard.writeText(secret ?? "");
      setCopy("copied");
    } catch {
      setCopy("failed");
    }
  }
  const askToClose = () => (saved ? onClose() : setConfirming(true));

  const title = confirming
    ? "Discard this key without saving it?"
    : secret
      ? leaked
        ? `Save the replacement for “${reveal.label}”`
        : `Save your new key “${reveal.label}”`
      : `“${reveal.label}” is revoked`;

  return (
    <AlertDialog
      open
      onOpenChange={(open) => !open && askToClose()}
      title={title}
      description={confirming ? "It is shown only once. After this, nobody can show it again." : reveal.message}
      onCloseAutoFocus={onCloseAutoFocus}
      onEscapeKeyDown={(event) => {
        event.preventDefault();
        askToClose();
      }}
    >
      {confirming ? (
        <DialogActions>
          <Button variant="secondary" onClick={onClose}>
            Discard the key
          </Button>
          <Button onClick={() => setConfirming(false)} data-autofocus autoFocus>
            Go back to the key
          </Button>
        </DialogActions>
      ) : (
        <div className="flex flex-col gap-4" data-testid="secret-dialog">
          {secret && (
            <div className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 dark:border-amber-700 dark:bg-amber-950">
              <p className="text-sm font-semibold text-amber-900 dark:text-amber-100">
                Copy this key now. It is shown only once: when this dialog closes it cannot be shown again.
              </p>
              <label htmlFor={fieldId} className="text-sm font-medium">
                Your new API key
              </label>
              <div className="flex flex-col gap-2 sm:flex-row">
                <input
                  id={fieldId}
                  readOnly
                  value={secret}
                  data-testid="new-secret"
                  onFocus={(event) => event.currentTarget.select()}
                  className="min-h-10 min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-3 py-2 font-mono text-sm dark:border-zinc-700 dark:bg-zinc-900"
                />
                <Button onClick={copySecret} data-autofocus>
                  Copy
                </Button>
              </div>
              <p role="status" className="text-sm">
                {copy === "copied"
                  ? "Copied to the clipboard."
                  : copy === "failed"
                    ? "Copying failed: select the key and copy it by hand."
                    : ""}
              </p>
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" checked={ticked} onChange={(event) => setTicked(event.target.checked)} />I have
                saved this key
              </label>
              <p className="text-sm">
                {reveal.decoy
                  ? "Place it where a real key would sit (a config file, a CI secret, a wiki page). It never works: any use of it alerts you, and tells you that place leaked."
                  : "Keep it in a server-side environment variable, never in client-side code."}
              </p>
            </div>
          )}
          {leaked && (
            <p className="text-sm">
              Next, check where the leaked key was used in{" "}
              {reveal.leakedKeyId ? (
                <Link href={`${keyPath(slug, reveal.leakedKeyId)}#requests`}>its request log</Link>
              ) : (
                "its request log"
              )}
              , and follow the <Link href="/docs/managing-keys#leaked-key-checklist">leaked-key checklist</Link>.
            </p>
          )}
          {!saved && (
            <p id={`${fieldId}-done-hint`} className="text-xs text-zinc-600 dark:text-zinc-400">
              Copy the key or tick “I have saved this key” to finish.
            </p>
          )}
          <DialogActions>
            <Button variant="secondary" onClick={askToClose}>
              Close
            </Button>
            <Button
              onClick={onClose}
              disabled={!saved}
              aria-describedby={saved ? undefined : `${fieldId}-done-hint`}
              {...(secret ? {} : { "data-autofocus": true })}
            >
              Done
            </Button>
          </DialogActions>
        </div>
      )}
    </AlertDialog>
  );
}
