"use client";

import { useCallback, useMemo, useRef, useState, type ReactNode } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { StepUpContext, type StepUpRequest } from "@/components/forms/step-up-context";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { stepUpAction } from "@/lib/web/actions/step-up";
import { GitHubSignIn } from "./github-sign-in";

export interface StepUpMethods {
  password: boolean;
  twoFactor: boolean;
}

/** The dashboard's "confirm it's you" dialog, for every form under it (components/forms/step-up-context.ts). */
export function StepUpProvider({ methods, children }: { methods: StepUpMethods; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  // The request being asked about; returnTo outlives it, for the focus once the dialog has closed.
  const request = useRef<StepUpRequest | null>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const ask = useCallback((next: StepUpRequest) => {
    request.current = next;
    returnTo.current = next.returnTo;
    setOpen(true);
  }, []);
  const value = useMemo(() => ({ ask }), [ask]);
  const close = useCallback((then: (asked: StepUpRequest) => void) => {
    setOpen(false);
    const asked = request.current;
    request.current = null;
    if (asked) then(asked);
  }, []);
  const confirmed = useCallback(() => close((asked) => asked.retry()), [close]);
  const cancelled = useCallback(() => close((asked) => asked.onCancel()), [close]);
  return (
    <StepUpContext.Provider value={value}>
      {children}
      {open && (
        <StepUpDialog
          methods={methods}
          onConfirmed={confirmed}
          onCancel={cancelled}
          // Back to the form that asked (Escape too), never to the page's body behind a dialog still open.
          onCloseAutoFocus={(event) => {
            const target = returnTo.current;
            if (!target?.isConnected) return;
            event.preventDefault();
            target.focus();
          }}
        />
      )}
    </StepUpContext.Provider>
  );
}

function StepUpDialog({
  methods,
  onConfirmed,
  onCancel,
  onCloseAutoFocus,
}: {
  methods: StepUpMethods;
  onConfirmed: () => void;
  onCancel: () => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const { pending, form, error } = useActionForm(stepUpAction, { onSuccess: onConfirmed });
  return (
    <Dialog
      open
      onOpenChange={(isOpen) => !isOpen && !pending && onCancel()}
      title="Confirm it’s you"
      onCloseAutoFocus={onCloseAutoFocus}
      description="Changes to production keys need a fresh sign-in: confirm within the last 10 minutes, then what you were doing carries on."
    >
      <form {...form} className="flex flex-col gap-4" noValidate>
        <FormAlert message={error} />
        {/* With two-factor on, only a code will do (lib/auth/step-up.ts): a password alone is not asked for. */}
        {methods.password && !methods.twoFactor && (
          <Input label="Password" name="password" type="password" autoComplete="current-password" />
        )}
        {methods.twoFactor && (
          <Input
            label="Code from your app"
            name="code"
            autoComplete="one-time-code"
            hint="A 6-digit code, or a recovery code."
          />
        )}
        {!methods.password && !methods.twoFactor && (
          <>
            <p className="text-sm">Your account signs in with GitHub: sign in with it again, then try once more.</p>
            <GitHubSignIn />
          </>
        )}
        <DialogActions>
          <Button type="button" variant="secondary" disabled={pending} onClick={onCancel}>
            Cancel
          </Button>
          {(methods.password || methods.twoFactor) && (
            <Button type="submit" disabled={pending}>
              {pending ? "Checking…" : "Confirm"}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
