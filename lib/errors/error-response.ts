// Builds the one error shape every part of the app answers with:
// { "error": { type, code, message, param?, doc_url, request_id } }
// plus Content-Type: application/json and X-Request-Id.
import { PreparedResponse } from "../http/prepared-response";
import { errorCatalog, type ErrorCode } from "./catalog";
import { newRequestId } from "./request-id";

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
  headers?: HeadersInit;
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
  const { text, init } = errorAnswer(code, options);
  return new Response(text, init);
}

/** The public API's error answer: the same, held as its text for the server to write (lib/http/prepared-response.ts). */
export function preparedErrorResponse(code: ErrorCode, options: ErrorOptions): Response {
  const { text, init } = errorAnswer(code, options);
  return new PreparedResponse(text, init);
}

function errorAnswer(code: ErrorCode, options: ErrorOptions) {
  const requestId = options.requestId ?? newRequestId();
  const headers = new Headers(options.headers);
  headers.set("Content-Type", "application/json");
  headers.set("Cache-Control", "no-store");
  headers.set("X-Request-Id", requestId);
  return {
    text: JSON.stringify(errorBody(code, { ...options, requestId })),
    init: { status: errorCatalog[code].status, headers },
  };
}
