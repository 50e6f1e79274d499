"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";

/** The one time a key's secret is shown. Nothing keeps it after this view. */
export function SecretReveal({ secret, leaked = false }: { secret: string; leaked?: boolean }) {
  const id = useId();
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  }

  return (
    <div className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 dark:border-amber-700 dark:bg-amber-950">
      <p className="text-sm font-semibold text-amber-900 dark:text-amber-100">
        Copy this key now. It is shown only once: when you leave this view it cannot be shown again.
      </p>
      <label htmlFor={id} className="text-sm font-medium">
        Your new API key
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={id}
          readOnly
          value={secret}
          data-testid="new-secret"
          onFocus={(event) => event.currentTarget.select()}
          className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-3 py-2 font-mono text-sm dark:border-zinc-700 dark:bg-zinc-900"
        />
        <Button onClick={copy}>Copy</Button>
      </div>
      <p role="status" className="text-sm">
        {copied === "copied"
          ? "Copied to the clipboard."
          : copied === "failed"
            ? "Copying failed: select the key and copy it by hand."
            : ""}
      </p>
      <p className="text-sm">
        Keep it in a server-side environment variable, never in client-side code.
        {leaked && (
          <>
            {" "}
            Next, follow the <Link href="/docs/managing-keys#leaked-key-checklist">leaked-key checklist</Link>.
          </>
        )}
      </p>
    </div>
  );
}
