// Builds the one error shape every part of the app answers with:
// { "error": { type, code, message, param?, doc_url, request_id } }
// plus Content-Type: application/json and X-Request-Id.
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
  const requestId = options.requestId ?? newRequestId();
  const headers = new Headers(options.headers);
  headers.set("Content-Type", "application/json");
  headers.set("Cache-Control", "no-store");
  headers.set("X-Request-Id", requestId);
  return new Response(JSON.stringify(errorBody(code, { ...options, requestId })), {
    status: errorCatalog[code].status,
    headers,
  });
}
