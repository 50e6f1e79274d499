"use client";

import { useEffect, useRef, useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { updateRestrictionsAction } from "@/lib/web/actions/keys";
import type { KeyEnvironment } from "@/lib/keys/format";
import { displayEntry } from "@/lib/keys/ip-allowlist";
import type { RestrictionOptions } from "@/lib/keys/restriction-options";
import type { KeyRestrictions } from "@/lib/keys/restrictions";
import { describeScopes } from "@/lib/keys/scopes";
import { RestrictionFields } from "./restriction-fields";

interface Props {
  keyId: string;
  label: string;
  environment: KeyEnvironment;
  restrictions: KeyRestrictions;
  /** The operator set the limit: it may be above the default, and saving it unchanged keeps it. */
  rateLimitByOperator: boolean;
  options: RestrictionOptions;
  /** False for a revoked or expired key: there is nothing left to restrict. */
  editable: boolean;
}

/** The key page's "Access" section: what the key can do, from where and how often, edited in place. */
export function KeyAccess({ keyId, label, environment, restrictions, rateLimitByOperator, options, editable }: Props) {
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  // Focus goes back to "Edit access" once the button is on the page again (after React's commit).
  const focusBack = useRef(false);
  useEffect(() => {
    if (editing || !focusBack.current) return;
    focusBack.current = false;
    editButton.current?.focus();
  }, [editing, restrictions]);
  const stopEditing = () => {
    focusBack.current = true;
    setEditing(false);
  };
  const { pending, form, error, fieldError, value } = useActionForm(updateRestrictionsAction, {
    onSuccess: (data) => {
      toast(data.message);
      stopEditing();
    },
  });
  const defaultLimit = options.defaultRateLimits[environment];

  if (!editing) {
    return (
      <>
        <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-3">
          <div>
            <dt className="font-medium">Scopes</dt>
            <dd className="break-words">{describeScopes(restrictions.scopes)}</dd>
          </div>
          <div>
            <dt className="font-medium">IP allowlist</dt>
            <dd className="font-mono break-all">
              {restrictions.allowedIps ? (
                restrictions.allowedIps.map((entry) => (
                  <span key={entry} className="block">
                    {displayEntry(entry)}
                  </span>
                ))
              ) : (
                <span className="font-sans">Any address</span>
              )}
            </dd>
          </div>
          <div>
            <dt className="font-medium">Rate limit</dt>
            <dd>
              {restrictions.rateLimit === null
                ? `Default, ${defaultLimit} per minute`
                : `${restrictions.rateLimit} per minute${rateLimitByOperator ? ", set by an operator" : ""}`}
            </dd>
          </div>
        </dl>
        {editable && (
          <Button
            ref={editButton}
            variant="secondary"
            className="mt-4"
            onClick={() => setEditing(true)}
            aria-label={`Edit access of “${label}”`}
          >
            Edit access
          </Button>
        )}
      </>
    );
  }
  return (
    <form {...form} className="mt-3 flex max-w-xl flex-col gap-4" noValidate aria-label={`Access of “${label}”`}>
      <FormAlert message={error} />
      <input type="hidden" name="keyId" value={keyId} />
      <RestrictionFields
        initial={restrictions}
        environment={environment}
        options={options}
        value={value}
        fieldError={fieldError}
      />
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Changes apply from the key&apos;s next request, on every server, and are kept in the activity log.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save access"}
        </Button>
        <Button variant="secondary" onClick={stopEditing} disabled={pending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
