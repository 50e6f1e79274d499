/** A refusal the user should read as is: nothing was changed. */
export class KeyActionError extends Error {
  override name = "KeyActionError";

  /** The form field the refusal is about, when it is about one. */
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export const KEY_NOT_FOUND = "That key was not found.";
