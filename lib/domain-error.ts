import type { ErrorCode } from "./errors/error-catalog";

/**
 * The one way the domain says no: a code from the error catalog (the kind of
 * refusal), a message a person can read, and the field it is about. The
 * domain knows neither HTTP nor forms: the gate maps it to the API's JSON
 * (lib/public-api/gate.ts) and the action wrapper to a form's result
 * (lib/web/define-action.ts), once each.
 */
export class DomainError extends Error {
  override name = "DomainError";

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: {
      /** The form field, body field or header the refusal is about. */
      field?: string;
      /** When trying again may work (a limit that frees up). */
      retryAfterSeconds?: number;
    } = {},
  ) {
    super(message);
  }
}
