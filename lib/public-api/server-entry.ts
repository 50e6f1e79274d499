// The entry of the public API's bundle (scripts/build-gate.mjs builds it into
// dist/public-api.mjs): the runtime server.mjs creates, what it serves under
// /api/v1 and /api/v1beta, and the parts the benchmark assembles its variants from.
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResponse } from "../errors/error-response";
import { newRequestId } from "../errors/request-id";
import { getEnv } from "../env";
import { nodeListener } from "../http/node-listener";
import { log } from "../log";
import { API_SECURITY_HEADERS } from "../security/api-headers";
import type { Runtime } from "../runtime/create-runtime";
import { gateServices } from "./app-gate";
import { createGate, type GateHandler } from "./gate";

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

/**
 * The public API as a Node request listener: the app's gate on `runtime`, or
 * a gate a test or the benchmark built. Upload bodies are paced to the
 * handler (lib/http/upload-flow.ts).
 */
export function publicApiListener(runtime: Runtime, handle: GateHandler = createGate(gateServices(runtime))) {
  const listener = nodeListener(handle, unansweredRequest);
  const flows = runtime.uploadFlows;
  return (req: IncomingMessage, res: ServerResponse) => {
    flows.pace(req, res);
    return listener(req, res);
  };
}

// What server.mjs builds the process from, and the benchmark its variants.
export { checkEnvironmentOrExit } from "../startup-check";
export { busyAwareListener } from "../http/busy-page";
export { createRuntime } from "../runtime/create-runtime";
export { publishRuntime } from "../runtime/runtime";
export { gateServices } from "./app-gate";
export { createGate, createUngatedBaseline } from "./gate";
export { DISCARD_USAGE } from "../usage/event";
// The benchmark's flat-keys rows build a gate with a small cache of their own (docs/benchmark.md).
export { cachedKeyLookup } from "../keys/key-cache";
