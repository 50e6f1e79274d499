"use client";

import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { narrowScopesAction } from "@/lib/web/actions/keys";
import { scopeField } from "@/lib/keys/scope-field";
import type { Scope } from "@/lib/keys/scopes";

/**
 * "Narrower scopes from real use": the scopes the key's successful requests
 * needed in the last 30 days, applied in one click through the same audited
 * edit as the Access form; the server keeps the key's allowlist and limit.
 */
export function ScopeSuggestion({
  keyId,
  label,
  suggested,
}: {
  keyId: string;
  label: string;
  suggested: readonly Scope[];
}) {
  const toast = useToast();
  const { pending, form, error } = useActionForm(narrowScopesAction, {
    onSuccess: (data) => toast(data.message),
  });
  // The page keeps this mounted with nothing to suggest, so a success (after which there is nothing left to
  // suggest) still reaches its toast.
  if (suggested.length === 0) return null;
  return (
    <form
      {...form}
      data-testid="scope-suggestion"
      className="mt-4 flex flex-col gap-2 rounded-md border border-zinc-200 p-4 text-sm dark:border-zinc-800"
    >
      <FormAlert message={error} />
      <p>
        In the last 30 days “{label}” only needed{" "}
        {suggested.map((scope, index) => (
          <span key={scope}>
            {index > 0 && ", "}
            <code>{scope}</code>
          </span>
        ))}
        . A narrower key is a smaller incident if it leaks.
      </p>
      <input type="hidden" name="keyId" value={keyId} />
      {suggested.map((scope) => (
        <input key={scope} type="hidden" name={scopeField(scope)} value="on" />
      ))}
      <div>
        <Button type="submit" variant="secondary" disabled={pending}>
          {pending ? "Narrowing…" : `Narrow to ${suggested.length === 1 ? "this scope" : "these scopes"}`}
        </Button>
      </div>
    </form>
  );
}
