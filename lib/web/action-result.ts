import type { z } from "zod";
import { holdsApiKey } from "../keys/key-in-text";

// The one way a server action answers, for useActionState. A failure carries
// what was typed (`values`), so a form rendered again, with JavaScript or
// without, shows it instead of an empty field.

export type FieldErrors = Record<string, string[] | undefined>;
export type FormValues = Record<string, string>;

export type ActionResult<T = undefined> =
  { ok: true; data: T } | { ok: false; error: string; fieldErrors: FieldErrors; values: FormValues };

/** What a form's state is before its first submission. */
export type ActionState<T = undefined> = ActionResult<T> | null;

export type FormAction<T = undefined> = (previous: ActionState<T>, formData: FormData) => Promise<ActionResult<T>>;

// Longer values are not echoed back: no field of ours takes more.
const MAX_ECHOED_LENGTH = 1_000;

/**
 * Whether an action was handed a form. Actions are public endpoints: a
 * crafted request can hand them any serialisable value instead.
 */
export function isForm(value: unknown): value is FormData {
  return value instanceof FormData;
}

export const NOT_A_FORM = "Send the form again from the page.";

/**
 * The text fields of a submission, to put back into the form. Secrets
 * (passwords) are named in `omit` and never leave the server again, nor does
 * any value holding an API key (a key pasted into a reason, say: the attack
 * review of approvals); Next's own `$ACTION_*` fields are dropped.
 */
export function formValues(formData: FormData, omit: readonly string[] = []): FormValues {
  const values: FormValues = {};
  if (!isForm(formData)) return values;
  for (const [name, value] of formData) {
    if (typeof value !== "string" || name.startsWith("$ACTION") || omit.includes(name)) continue;
    // The whole value is looked at (a key cut off by the shortening would still leak most of itself), and the name.
    if (holdsApiKey(name) || holdsApiKey(value.slice(0, MAX_ECHOED_LENGTH + 100))) continue;
    values[name] = value.slice(0, MAX_ECHOED_LENGTH);
  }
  return values;
}

export function ok<T>(data: T): ActionResult<T> {
  return { ok: true, data };
}

export function failure(
  error: string,
  formData?: FormData,
  options: { fieldErrors?: FieldErrors; omit?: readonly string[] } = {},
): { ok: false; error: string; fieldErrors: FieldErrors; values: FormValues } {
  return {
    ok: false,
    error,
    fieldErrors: options.fieldErrors ?? {},
    values: formData ? formValues(formData, options.omit) : {},
  };
}

/** A zod failure: each field's messages, and the first of them as the form's error. */
export function invalid(error: z.ZodError, formData: FormData, omit: readonly string[] = []) {
  const fieldErrors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "");
    (fieldErrors[field] ??= []).push(issue.message);
  }
  const first = error.issues[0]?.message ?? "Check the form and try again.";
  return failure(first, formData, { fieldErrors, omit });
}
