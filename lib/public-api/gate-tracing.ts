import type { MaybePromise } from "../maybe-promise";
import { inChildSpan, type TraceSpan } from "../tracing/tracing";
import type { PublicRoute } from "./routes";

// The gate's tracing hook (lib/public-api/gate.ts): a span per request, a
// child per step that did work (lookup, limits, handler). The gate is given a
// tracer only when tracing is on (GateServices.tracer); each place it would
// trace reads `TRACING_HOOK && trace.span` (./tracing-hook.ts), so with
// tracing off a request pays a few property reads.

export interface RequestOutcome {
  method: string;
  route: PublicRoute | undefined;
  requestId: string;
  keyId: string | undefined;
  keyCached: boolean | undefined;
  status: number;
  errorCode: string | undefined;
}

/**
 * Names the request's span after its route (`GET /api/v1/models`, as
 * OpenTelemetry's HTTP conventions name a server span) and ends it. Never the
 * URL itself: its query could hold a key sent where it should not be.
 * Only a 5xx marks the request failed; a refusal is an answer.
 */
export function endRequestSpan(span: TraceSpan, outcome: RequestOutcome): void {
  const { route } = outcome;
  if (route) span.rename(`${outcome.method} ${route.path}`);
  span.set({
    "http.request.method": outcome.method,
    "http.route": route?.path,
    "http.response.status_code": outcome.status,
    "keyport.route": route?.name,
    "keyport.request_id": outcome.requestId,
    "keyport.key_id": outcome.keyId,
    "keyport.key_cache": outcome.keyCached === undefined ? undefined : outcome.keyCached ? "hit" : "miss",
    "keyport.error_code": outcome.errorCode,
  });
  if (outcome.status >= 500) span.fail(outcome.errorCode ?? String(outcome.status));
  span.end();
}

/**
 * One of a traced request's steps, in a child span: the step and its
 * arguments are passed, so the gate's own functions hold no closure for it.
 */
export function tracedStep<A extends unknown[], T>(
  span: TraceSpan,
  name: string,
  step: (...args: A) => MaybePromise<T>,
  ...args: A
): MaybePromise<T> {
  return inChildSpan(span, name, () => step(...args));
}
