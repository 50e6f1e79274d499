// The entry of the public API's bundle (scripts/build-gate.mjs builds it into
// dist/public-api.mjs): what server.mjs serves under /api/v1 and /api/v1beta,
// and the parts the benchmark assembles its variants from.
import { errorResponse } from "../errors/error-response";
import { newRequestId } from "../errors/request-id";
import { getEnv } from "../env";
import { nodeListener } from "../http/node-listener";
import { log } from "../log";
import { API_SECURITY_HEADERS } from "../security/api-headers";
import { answerPublicRequest } from "./app-gate";
import type { GateHandler } from "./gate";

/** The deployment's origin for doc_url; read without throwing, since this answers when something already failed. */
function baseUrl(): string {
  try {
    return getEnv().PUBLIC_BASE_URL;
  } catch {
    return process.env.PUBLIC_BASE_URL ?? "";
  }
}

/**
 * What the gate could not answer itself, in the catalog's shape: a request
 * that is no URL (no or a malformed Host header) is 400; anything the gate
 * threw (it catches its own errors, so this is a bug or a broken environment) is 500.
 */
export function unansweredRequest({ malformed, error }: { malformed: boolean; error: unknown }): Response {
  const requestId = newRequestId();
  const options = { requestId, baseUrl: baseUrl(), headers: API_SECURITY_HEADERS };
  if (malformed) {
    log.info("api.request", { request_id: requestId, route: null, status: 400, malformed: "host" });
    return errorResponse("invalid_request", { ...options, message: "This request has no valid Host header." });
  }
  log.error("api.unhandled_error", { request_id: requestId, error: String((error as Error)?.message ?? error) });
  return errorResponse("internal_error", options);
}

/** The app's public API (or a gate a test or the benchmark built) as a Node request listener. */
export function publicApiListener(handle: GateHandler = answerPublicRequest) {
  return nodeListener(handle, unansweredRequest);
}

// What the benchmark (scripts/bench) builds its variants from; server.mjs uses publicApiListener only.
export { appGateServices } from "./app-gate";
export { createGate, createUngatedBaseline } from "./gate";
export { DISCARD_USAGE } from "../usage/event";
