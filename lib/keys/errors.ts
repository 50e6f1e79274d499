import { DomainError } from "../domain-error";

export const KEY_NOT_FOUND = "That key was not found.";

/** No key of this owner has that id (another owner's key is "not found" too). */
export const keyNotFound = () => new DomainError("not_found", KEY_NOT_FOUND);

/** A refusal the user should read as is: nothing was changed. */
export const keyRefused = (message: string, field?: string) =>
  new DomainError("invalid_request", message, field ? { field } : {});
