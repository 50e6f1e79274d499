import "server-only";
import { DomainError } from "../../domain-error";

// What the sign-up, sign-in and password forms share, beside the action
// wrapper (lib/web/define-action.ts), which refuses a key, reads the form and
// answers "busy" when the password checks queue up.

// A password never goes back to the browser, not even into its own form.
export const SECRET_FIELDS = ["password"] as const;

/** A credential check's refusal: what the form shows, on its field. */
type Refusal = { ok: false; error: string; field?: string | undefined };

/** What passed, or the refusal thrown for the wrapper to show. */
export function passed<T extends { ok: true } | Refusal>(result: T): Extract<T, { ok: true }> {
  if (!result.ok) {
    const { error, field } = result as Refusal;
    throw new DomainError("invalid_request", error, field ? { field } : {});
  }
  return result as Extract<T, { ok: true }>;
}
