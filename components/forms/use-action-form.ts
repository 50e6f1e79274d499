"use client";

import { startTransition, useActionState, useEffect, useEffectEvent, useRef, useState, type FormEvent } from "react";
import type { ActionState, FormAction } from "@/lib/web/action-result";
import { useStepUp } from "./step-up-context";

// The field a "confirm it's you" refusal names (lib/auth/step-up.ts, STEP_UP_FIELD).
const STEP_UP_FIELD = "stepUp";

/**
 * The app's one form pattern: a server action through useActionState.
 *
 * Before hydration the browser posts the form itself and the page comes back
 * with `state.values` in the fields. Once hydrated, the submission runs in a
 * transition of our own instead of React's form action, because React resets
 * a form after its action: that reset is what used to clear labels and flip
 * radio buttons after an error. Nothing typed is lost either way.
 */
export function useActionForm<T>(
  action: FormAction<T>,
  options: { initial?: ActionState<T>; onSuccess?: (data: T) => void } = {},
) {
  const [state, formAction, pending] = useActionState<ActionState<T>, FormData>(action, options.initial ?? null);
  const formRef = useRef<HTMLFormElement>(null);

  // Each success is handed on once, however often the form renders after it.
  const succeeded = useEffectEvent((data: T) => options.onSuccess?.(data));
  const handled = useRef<ActionState<T>>(null);
  useEffect(() => {
    if (!state?.ok || handled.current === state) return;
    handled.current = state;
    succeeded(state.data);
  }, [state]);

  // After a refusal, focus the first field it names, or the form's alert.
  useEffect(() => {
    if (!state || state.ok) return;
    const form = formRef.current;
    const target = form?.querySelector<HTMLElement>("[aria-invalid='true']") ?? form?.querySelector("[role='alert']");
    target?.focus();
  }, [state]);

  // "Confirm it's you": ask, then send the very same submission again. Closed unanswered (Escape, Cancel), the
  // refusal is no longer shown: the form is back as it was before it was sent, what was typed included.
  const stepUp = useStepUp();
  const lastSubmission = useRef<FormData | null>(null);
  const askedFor = useRef<ActionState<T>>(null);
  const [dismissed, setDismissed] = useState<ActionState<T>>(null);
  useEffect(() => {
    if (!state || state.ok || !state.fieldErrors[STEP_UP_FIELD] || askedFor.current === state) return;
    askedFor.current = state;
    const submission = lastSubmission.current;
    const returnTo = formRef.current?.querySelector<HTMLElement>("[type='submit']") ?? null;
    if (stepUp && submission) {
      stepUp.ask({
        retry: () => startTransition(() => formAction(submission)),
        returnTo,
        onCancel: () => setDismissed(state),
      });
    }
  }, [state, stepUp, formAction]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const formData = new FormData(event.currentTarget, submitter);
    lastSubmission.current = formData;
    startTransition(() => formAction(formData));
  }

  const shown = state !== null && state === dismissed ? null : state;
  const failed = state && !state.ok ? state : null;
  const refusal = shown && !shown.ok ? shown : null;
  return {
    /** The last answer, unless it was a "confirm it's you" closed unanswered. */
    state: shown,
    pending,
    form: { ref: formRef, action: formAction, onSubmit },
    /** What was typed in this field before the last refusal. */
    value: (name: string): string | undefined => failed?.values[name],
    /** The first message for this field from the last refusal. */
    fieldError: (name: string): string | undefined => refusal?.fieldErrors[name]?.[0],
    error: refusal?.error,
  };
}
