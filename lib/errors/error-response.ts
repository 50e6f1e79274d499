// Builds the one error shape every part of the app answers with:
// { "error": { type, code, message, param?, doc_url, request_id } }
// plus Content-Type: application/json and X-Request-Id.
import { TextReply, toResponse } from "../http/text-reply";
import { errorCatalog, type ErrorCode } from "./error-catalog";
import { newRequestId } from "./request-id";
import { withFields } from "../with-fields";

export interface ErrorBody {
  error: {
    type: string;
    code: ErrorCode;
    message: string;
    param?: string;
    doc_url: string;
    request_id: string;
  };
}

export interface ErrorOptions {
  message?: string;
  param?: string;
  requestId?: string;
  headers?: Record<string, string>;
  /** The deployment's origin, for doc_url. */
  baseUrl: string;
}

export function errorBody(code: ErrorCode, options: ErrorOptions & { requestId: string }): ErrorBody {
  const entry = errorCatalog[code];
  return {
    error: {
      type: entry.type,
      code,
      message: options.message ?? entry.message,
      ...(options.param ? { param: options.param } : {}),
      doc_url: `${options.baseUrl.replace(/\/$/, "")}/docs/errors#${code}`,
      request_id: options.requestId,
    },
  };
}

export function errorResponse(code: ErrorCode, options: ErrorOptions): Response {
  return toResponse(errorReply(code, options));
}

/**
 * The public API's error answer: the same, as a TextReply for the server to
 * write (lib/http/text-reply.ts). Its extra headers come from the gate's own
 * constants and numbers, never from the request.
 */
export function errorReply(code: ErrorCode, options: ErrorOptions): TextReply {
  const requestId = options.requestId ?? newRequestId();
  const headers = ["Content-Type", "application/json", "Cache-Control", "no-store", "X-Request-Id", requestId];
  for (const name in options.headers) headers.push(name, options.headers[name]!);
  return new TextReply(
    errorCatalog[code].status,
    headers,
    JSON.stringify(errorBody(code, withFields(options, { requestId }))),
  );
}
