/** A refusal the user should read as is: nothing was changed. */
export class KeyActionError extends Error {
  override name = "KeyActionError";
}

export const KEY_NOT_FOUND = "That key was not found.";
