"use client";

import { useTeam } from "@/components/teams/team-context";
import { keyPath } from "@/lib/web/team-paths";
import Link from "next/link";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { absoluteTime } from "@/lib/format-time";
import { dismissLeakNoticeAction } from "@/lib/web/actions/keys";
import type { ReportedLeak } from "@/lib/keys/queries";

// At the top of the key list: keys that someone else found in public and
// that Keyport revoked on their report. A report makes no replacement (the
// owner decides), but a key in a rotation's grace already has one, which goes
// on working: each entry says which. It stays until the owner dismisses it.

const SOURCE_TEXT: Record<ReportedLeak["source"], string> = {
  "secret-scanning": "found in public code by GitHub secret scanning",
  "public-report": "reported through the public report form",
};

function Dismiss({ keyId, label }: { keyId: string; label: string }) {
  const { form, pending } = useActionForm(dismissLeakNoticeAction);
  return (
    <form {...form}>
      <input type="hidden" name="keyId" value={keyId} />
      <Button type="submit" variant="secondary" disabled={pending} aria-label={`Dismiss the notice about “${label}”`}>
        Dismiss
      </Button>
    </form>
  );
}

export function ReportedLeaksNotice({ leaks }: { leaks: ReportedLeak[] }) {
  const { slug } = useTeam();
  if (leaks.length === 0) return null;
  return (
    <section
      aria-labelledby="reported-leaks-heading"
      data-testid="reported-leaks"
      className="mt-6 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      <h2 id="reported-leaks-heading" className="font-semibold">
        {leaks.length === 1
          ? "A key was found in public and revoked"
          : `${leaks.length} keys were found in public and revoked`}
      </h2>
      <p className="mt-1">{leaks.length === 1 ? "Requests with it are refused." : "Requests with them are refused."}</p>
      <ul className="mt-3 flex flex-col gap-3">
        {leaks.map((leak) => (
          <li key={leak.keyId} className="flex flex-wrap items-start justify-between gap-3">
            <div className="min-w-0">
              <Link href={keyPath(slug, leak.keyId)} className="font-semibold underline">
                {leak.label}
              </Link>{" "}
              <span className="font-mono text-xs break-all">{leak.keyId}</span>
              <p>
                {leak.environment === "prod" ? "Production" : "Development"} key, {SOURCE_TEXT[leak.source]}, revoked{" "}
                {absoluteTime(leak.revokedAt)}.
              </p>
              {leak.url && <p className="break-all">Found at {leak.url}</p>}
              <p data-testid="reported-leak-replacement">
                {leak.replacement ? (
                  <>
                    It was in a rotation&apos;s grace period: its replacement,{" "}
                    <Link href={keyPath(slug, leak.replacement.keyId)} className="underline">
                      {leak.replacement.label}
                    </Link>
                    , keeps working. Check that its secret was not kept in the same place.
                  </>
                ) : (
                  "No replacement was made: create a new key (or rotate another) and update what used this one."
                )}
              </p>
            </div>
            <Dismiss keyId={leak.keyId} label={leak.label} />
          </li>
        ))}
      </ul>
    </section>
  );
}
