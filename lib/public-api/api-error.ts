import type { ErrorCode } from "../errors/error-catalog";

/** A failure the gate or a handler answers with, in the error catalog's shape. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly code: ErrorCode,
    readonly options: { message?: string; param?: string; headers?: Record<string, string> } = {},
  ) {
    super(options.message ?? code);
  }
}
