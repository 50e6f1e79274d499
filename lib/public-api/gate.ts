import "server-only";
import { clientIp } from "../auth/client-ip";
import { DATABASE_BUSY_RETRY_AFTER_SECONDS, isDatabaseBusy } from "../database-busy";
import { getEnv } from "../env";
import { errorReply } from "../errors/error-response";
import { newRequestId } from "../errors/request-id";
import { TextReply, toResponse, type ApiAnswer } from "../http/text-reply";
import type { DecoyAlerts } from "../keys/decoy";
import { ipAllowed } from "../keys/ip-allowlist";
import type { KeyLookup } from "../keys/key-cache";
import { UNRESTRICTED } from "../keys/restrictions";
import { claimKeyUse, verifyApiKey, type FoundKey, type Verification, type VerifiedKey } from "../keys/verify";
import { cleanUserAgent } from "../text";
import { DISCARD_USAGE, USER_AGENT_MAX_LENGTH, type UsageSink } from "../usage/event";
import { log } from "../log";
import { andThen, type MaybePromise } from "../maybe-promise";
import { API_SECURITY_HEADERS } from "../security/api-headers";
import { strictTransportSecurity } from "../security/hsts";
import { ApiError } from "./api-error";
import { DomainError } from "../domain-error";
import { parseJson, readLimitedBody, refuseDeclaredOverLimit, requireContentType } from "./body";
import {
  insufficientScopeChallenge,
  insufficientScopeMessage,
  invalidKey,
  ipNotAllowedMessage,
  presentedKey,
  refuseKeyInUrl,
  WWW_AUTHENTICATE_INVALID,
} from "./credentials";
import { countRequest, type CountedRate } from "./count-request";
import { rateLimitHeaders, type RateLimitStore } from "./rate-limit";
import { routeHandlers } from "./route-handlers";
import { pathParams, routesForPath, type PublicRoute, type RegisteredRoute } from "./routes";
import { allows } from "../keys/scopes";
import { withFields } from "../with-fields";
import type { GateMetrics } from "../metrics/gate-metrics";
import type { TraceSpan, Tracer } from "../tracing/tracing";
import { endRequestSpan, tracedStep } from "./gate-tracing";
import { TRACING_HOOK } from "./tracing-hook";

// The gate: every request to /api/v1/** and /api/v1beta/** passes through
// the gate createGate builds (server.mjs serves it with publicApiListener,
// lib/public-api/server-entry.ts). Its checks run in one fixed order, stated
// once in lib/public-api/gate-order.ts (steps 1 to 13 below are its rows),
// and the first failure answers. Browser cookies play no part.

interface Trace {
  requestId: string;
  route?: PublicRoute;
  /** The key the lookup found (step 6), verified or not: its use is recorded whatever comes after. */
  found?: FoundKey;
  key?: VerifiedKey;
  /** Whether this instance's key cache answered the lookup (logged, so operators and tests can see it work). */
  keyCached?: boolean;
  rate?: CountedRate;
  /** The request passed every key check and is the key's first use in a minute here: its usage event moves the last use. */
  touchesKey?: boolean;
  /** The catalog code of an error answer. */
  errorCode?: string;
  /** The client's address, worked out once (lib/auth/client-ip.ts). */
  ip?: string;
  /** The request's span, when tracing is on and its SDK has loaded (lib/public-api/gate-tracing.ts). */
  span?: TraceSpan;
}

function requestIp(request: Request, trace: Trace): string {
  return (trace.ip ??= clientIp(request.headers, getEnv().TRUST_PROXY));
}

function allowHeader(routes: PublicRoute[]): string {
  const methods = new Set(routes.map((route) => route.method as string));
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].join(", ");
}

/** Steps 4 to 8: the key, at once when this instance's cache could tell without the database. */
function verify(request: Request, trace: Trace, services: GateServices): MaybePromise<VerifiedKey> {
  const secret = presentedKey(request.headers);
  let verification: MaybePromise<Verification>;
  try {
    verification = verifyApiKey(secret, new Date(), services.keys);
  } catch (error) {
    throw lookupFailed(error);
  }
  if (verification instanceof Promise) {
    return verification.then(
      (answer) => acceptedKey(request, trace, answer, services.decoys),
      (error: unknown) => {
        throw lookupFailed(error);
      },
    );
  }
  return acceptedKey(request, trace, verification, services.decoys);
}

/** The database (or the store behind it) could not answer: never the cache's word instead. */
function lookupFailed(error: unknown): ApiError {
  log.error("api.key_lookup_failed", { error: String((error as Error)?.message) });
  return new ApiError("service_unavailable");
}

function acceptedKey(request: Request, trace: Trace, verification: Verification, decoys: DecoyAlerts): VerifiedKey {
  if (verification.ok) {
    trace.found = verification.key;
    trace.keyCached = verification.cached;
    return verification.key;
  }
  if (verification.reason === "decoy") {
    // Step 7: exactly the unknown-key answer, with nothing recorded as usage;
    // the alert is written after this answer, off the request path.
    decoys.alert(verification.key, {
      ip: requestIp(request, trace),
      userAgent: cleanUserAgent(request.headers.get("user-agent"), USER_AGENT_MAX_LENGTH),
      route: trace.route?.name ?? "unknown route",
    });
    throw invalidKey();
  }
  if (verification.reason === "invalid") throw invalidKey();
  trace.found = verification.key;
  const challenge = { "WWW-Authenticate": WWW_AUTHENTICATE_INVALID };
  if (verification.reason === "revoked") throw new ApiError("revoked_api_key", { headers: challenge });
  throw new ApiError("expired_api_key", { headers: challenge });
}

/** Step 9: a key with an allowlist works only from inside it. The message names no range. */
function refuseOutsideAllowlist(key: VerifiedKey, ip: string) {
  const allowed = key.restrictions.allowedIps;
  if (allowed && !ipAllowed(ip, allowed)) {
    log.warn("api.ip_not_allowed", { key_id: key.publicId, ip });
    throw new ApiError("ip_not_allowed", { message: ipNotAllowedMessage(ip) });
  }
}

/** Step 10: RFC 6750 section 3.1's answer, naming the scope the route needs. */
function refuseWithoutScope(key: VerifiedKey, route: PublicRoute) {
  if (allows(key.restrictions.scopes, route.scope)) return;
  throw new ApiError("insufficient_scope", {
    message: insufficientScopeMessage(route),
    headers: { "WWW-Authenticate": insufficientScopeChallenge(route.scope) },
  });
}

function readBody(request: Request, route: PublicRoute): MaybePromise<unknown> {
  if (!route.body) return undefined;
  const env = getEnv();
  if (route.body === "multipart") {
    // Checked here, in the gate's order; the handler streams the body itself (to disk, never whole).
    refuseDeclaredOverLimit(request, env.BODY_LIMIT_UPLOAD_BYTES);
    requireContentType(request, "multipart");
    return undefined;
  }
  return readLimitedBody(request, env.BODY_LIMIT_JSON_BYTES).then((bytes) => {
    requireContentType(request, "json");
    return parseJson(bytes);
  });
}

/** Steps 1 and 2: the route this path and method name. */
function matchRoute(request: Request, url: URL): RegisteredRoute {
  const routes = routesForPath(url.pathname);
  if (routes.length === 0) throw new ApiError("not_found", { message: "There is no public API route at this path." });
  const method = request.method === "HEAD" ? "GET" : request.method;
  const route = routes.find((candidate) => candidate.method === method);
  if (!route) {
    throw new ApiError("method_not_allowed", {
      message: `This route accepts ${allowHeader(routes)}.`,
      headers: { Allow: allowHeader(routes) },
    });
  }
  return route;
}

// Each step runs at once when the one before answered at once (lib/maybe-promise.ts).
function pipeline(request: Request, url: URL, trace: Trace, services: GateServices): MaybePromise<ApiAnswer> {
  const route = matchRoute(request, url);
  trace.route = route;
  refuseKeyInUrl(url);
  // Each step that does work is a child span of the request's when it is traced.
  const verified =
    TRACING_HOOK && trace.span
      ? tracedStep(trace.span, "lookup", verify, request, trace, services)
      : verify(request, trace, services);
  return andThen(verified, (key) => {
    trace.key = key;
    refuseOutsideAllowlist(key, requestIp(request, trace));
    refuseWithoutScope(key, route);
    const counted =
      TRACING_HOOK && trace.span
        ? tracedStep(trace.span, "limits", countRequest, key, services.rateLimits)
        : countRequest(key, services.rateLimits);
    return andThen(counted, (rate) => {
      trace.rate = rate;
      if (rate && !rate.allowed) throw rateLimited(key, rate);
      trace.touchesKey = claimKeyUse(key);
      return TRACING_HOOK && trace.span
        ? tracedStep(trace.span, "handler", runHandler, request, url, route, trace, key)
        : runHandler(request, url, route, trace, key);
    });
  });
}

/** Steps 11 and 12's refusal; the team-wide limit says so. */
function rateLimited(key: VerifiedKey, rate: CountedRate): ApiError {
  const environment = key.environment === "prod" ? "production" : "development";
  return new ApiError("rate_limited", {
    headers: { "Retry-After": String(rate.resetSeconds) },
    ...(rate.scope === "account"
      ? {
          message: `Too many requests from this team's ${environment} keys together. Slow down and try again after the time in the Retry-After header.`,
        }
      : {}),
  });
}

/** Step 13: the body is read here; the route's handler validates it, then the query (lib/public-api/define-handler.ts). */
function runHandler(
  request: Request,
  url: URL,
  route: RegisteredRoute,
  trace: Trace,
  key: VerifiedKey,
): MaybePromise<ApiAnswer> {
  return andThen(readBody(request, route), (body) =>
    routeHandlers[route.name].run({
      request,
      requestId: trace.requestId,
      key: { id: key.id, publicId: key.publicId, teamId: key.teamId, userId: key.userId, environment: key.environment },
      params: pathParams(route, url.pathname),
      query: Object.fromEntries(url.searchParams),
      body,
    }),
  );
}

/** The domain's refusal (lib/domain-error.ts) in the API's terms: its field is the error's `param`. */
function fromDomain({ code, message, options }: DomainError): ApiError {
  const headers =
    options.retryAfterSeconds === undefined ? undefined : { "Retry-After": String(options.retryAfterSeconds) };
  return new ApiError(code, {
    message,
    ...(options.field ? { param: options.field } : {}),
    ...(headers ? { headers } : {}),
  });
}

/** Every 503 says when to try again; one the gate did not choose itself comes from a busy database. */
const RETRY_AFTER = { "Retry-After": String(DATABASE_BUSY_RETRY_AFTER_SECONDS) };

function errorAnswer(raised: unknown, trace: Trace): TextReply {
  const baseUrl = getEnv().PUBLIC_BASE_URL;
  let error = raised instanceof DomainError ? fromDomain(raised) : raised;
  if (!(error instanceof ApiError) && isDatabaseBusy(error)) {
    // A handler's query found no free connection (or SQLite's write lock) in time: overload, not a fault.
    log.warn("api.database_busy", { request_id: trace.requestId, route: trace.route?.name });
    error = new ApiError("service_unavailable");
  }
  trace.errorCode = error instanceof ApiError ? error.code : "internal_error";
  if (error instanceof ApiError) {
    const options =
      error.code === "service_unavailable"
        ? withFields(error.options, { headers: Object.assign({}, RETRY_AFTER, error.options.headers) })
        : error.options;
    return errorReply(error.code, withFields(options, { requestId: trace.requestId, baseUrl }));
  }
  // Unexpected: a generic 500 with the request id; the details go to the log only.
  log.error("api.unhandled_error", {
    request_id: trace.requestId,
    trace_id: TRACING_HOOK ? trace.span?.traceId : undefined,
    route: trace.route?.name,
    error: String((error as Error)?.stack ?? error),
  });
  return errorReply("internal_error", { requestId: trace.requestId, baseUrl });
}

/**
 * What a gate is given rather than fetches (CONVENTIONS: services are given),
 * as Unkey's key service is given its cache, database and limiter. The app's
 * are built in lib/public-api/app-gate.ts; tests and the benchmark build the
 * variants they need.
 */
export interface GateServices {
  /** Finds keys by digest: cached or not, it reads the database on every request (lib/keys/key-cache.ts). */
  keys: KeyLookup;
  /** The rate-limit counters: in process, PostgreSQL or Redis. */
  rateLimits: RateLimitStore;
  /** Where each request that found a key is recorded; it never blocks or fails the request. */
  usage: UsageSink;
  /** Where a decoy key's use is alerted, off the request path (lib/keys/decoy.ts). */
  decoys: DecoyAlerts;
  /** Where each answer is counted for Prometheus (lib/metrics); absent when METRICS_PORT is unset. */
  metrics?: GateMetrics;
  /** Starts each request's trace (lib/tracing); absent when OTEL_EXPORTER_OTLP_ENDPOINT is unset. */
  tracer?: Tracer;
}

/**
 * A gate: a request in, its answer out. A TextReply (most answers) is written
 * to the socket as it is by lib/http/node-listener.ts; `asFetchHandler` turns
 * a gate into one that answers with standard Responses, for callers in this
 * process (tests).
 */
export type GateHandler = (request: Request) => MaybePromise<ApiAnswer>;
export type PublicApiHandler = (request: Request) => Promise<Response>;

export function createGate(services: GateServices): GateHandler {
  return (request) => handle(request, (trace, url) => pipeline(request, url, trace, services), services);
}

export function asFetchHandler(gate: GateHandler): PublicApiHandler {
  return async (request) => toResponse(await gate(request), { head: request.method === "HEAD" });
}

/** Who the ungated baseline's handlers think is calling. */
const BASELINE_KEY: VerifiedKey = {
  id: "baseline",
  publicId: "key_baseline",
  teamId: "baseline",
  userId: "baseline",
  environment: "dev",
  lastUsedAt: null,
  restrictions: UNRESTRICTED,
  rateLimitByOperator: false,
};

/**
 * The benchmark's baseline: the same routes, handlers and response headers
 * with none of the gate's checks. Only scripts/bench builds it; server.mjs
 * serves createGate's handler and nothing else.
 */
export function createUngatedBaseline(): GateHandler {
  return (request) =>
    handle(
      request,
      (trace, url) => {
        const route = matchRoute(request, url);
        trace.route = route;
        return runHandler(request, url, route, trace, BASELINE_KEY);
      },
      { usage: DISCARD_USAGE },
    );
}

function recordUsage(usage: UsageSink, request: Request, trace: Trace, status: number, started: number) {
  if (!trace.found || !trace.route || usage === DISCARD_USAGE) return;
  try {
    usage.record({
      requestId: trace.requestId,
      keyId: trace.found.id,
      userId: trace.found.userId,
      route: trace.route.name,
      status,
      errorCode: trace.errorCode ?? null,
      latencyMs: Math.round(performance.now() - started),
      ip: requestIp(request, trace),
      userAgent: cleanUserAgent(request.headers.get("user-agent"), USER_AGENT_MAX_LENGTH),
      createdAt: new Date(),
      ...(trace.touchesKey ? { touchesKey: true } : {}),
    });
  } catch (error) {
    // Usage must never cost a request its answer.
    log.warn("usage.record_failed", { request_id: trace.requestId, error: String((error as Error)?.message) });
  }
}

// eslint-disable-next-line no-restricted-syntax -- a memo of the headers for the current PUBLIC_BASE_URL.
let common: { baseUrl: string; headers: string[] } | undefined;

/** The headers every answer carries, in writeHead's shape; HSTS only on an https deployment. */
function commonHeaders(): string[] {
  const baseUrl = getEnv().PUBLIC_BASE_URL;
  if (common?.baseUrl !== baseUrl) {
    const headers: string[] = Object.entries(API_SECURITY_HEADERS).flat();
    // proxy.ts, which sends HSTS with every page, never sees the public API.
    const hsts = strictTransportSecurity(baseUrl);
    if (hsts) headers.push("Strict-Transport-Security", hsts);
    common = { baseUrl, headers };
  }
  return common.headers;
}

/** Sets the gate's headers on a handler's own Response (a stream or a file): copying it into a new one costs more. */
function finishResponse(response: Response, trace: Trace): Response {
  const headers = response.headers;
  // Streams keep their "no-cache, no-transform" (which stops compression from buffering) and gain no-store.
  const cacheControl = headers.get("Cache-Control");
  headers.set(
    "Cache-Control",
    cacheControl && !cacheControl.includes("no-store") ? `${cacheControl}, no-store` : "no-store",
  );
  headers.set("X-Request-Id", trace.requestId);
  const common = commonHeaders();
  for (let i = 0; i < common.length; i += 2) headers.set(common[i]!, common[i + 1]!);
  if (trace.rate) for (const [name, value] of rateLimitHeaders(trace.rate)) headers.set(name, value);
  return response;
}

/** Adds the gate's headers to a TextReply: plain appends, since the reply holds none of them yet (errorReply's two aside). */
function finishReply(reply: TextReply, trace: Trace): TextReply {
  const headers = reply.headers;
  if (reply.header("Cache-Control") === null) headers.push("Cache-Control", "no-store");
  if (reply.header("X-Request-Id") === null) headers.push("X-Request-Id", trace.requestId);
  headers.push(...commonHeaders());
  if (trace.rate) for (const [name, value] of rateLimitHeaders(trace.rate)) headers.push(name, value);
  return reply;
}

/** Where an answer is recorded once it is made. */
type Recorders = Pick<GateServices, "usage" | "metrics" | "tracer">;

function handle(
  request: Request,
  answer: (trace: Trace, url: URL) => MaybePromise<ApiAnswer>,
  recorders: Recorders,
): MaybePromise<ApiAnswer> {
  const started = performance.now();
  const trace: Trace = { requestId: newRequestId() };
  if (TRACING_HOOK && recorders.tracer) trace.span = recorders.tracer.start(request.method, "server");
  const url = new URL(request.url);
  let result: MaybePromise<ApiAnswer>;
  try {
    result = answer(trace, url);
  } catch (error) {
    result = errorAnswer(error, trace);
  }
  if (result instanceof Promise) {
    return result.then(
      (settled) => finish(request, trace, settled, recorders, started),
      (error: unknown) => finish(request, trace, errorAnswer(error, trace), recorders, started),
    );
  }
  return finish(request, trace, result, recorders, started);
}

/** The gate's headers, the request's log line and usage event, and HEAD's empty body. */
function finish(request: Request, trace: Trace, answer: ApiAnswer, recorders: Recorders, started: number): ApiAnswer {
  const result = answer instanceof TextReply ? finishReply(answer, trace) : finishResponse(answer, trace);
  const elapsedMs = performance.now() - started;
  recorders.metrics?.request(trace.route?.name ?? null, result.status, elapsedMs / 1000, trace.errorCode);
  const line: Record<string, unknown> = {
    request_id: trace.requestId,
    key_id: trace.key?.publicId,
    key_cache: trace.keyCached === undefined ? undefined : trace.keyCached ? "hit" : "miss",
    route: trace.route?.name ?? null,
    method: request.method,
    status: result.status,
    duration_ms: Math.round(elapsedMs * 10) / 10,
  };
  if (TRACING_HOOK && trace.span) {
    line.trace_id = trace.span.traceId;
    endRequestSpan(trace.span, {
      method: request.method,
      route: trace.route,
      requestId: trace.requestId,
      keyId: trace.found?.publicId,
      keyCached: trace.keyCached,
      status: result.status,
      errorCode: trace.errorCode,
    });
  }
  log.info("api.request", line);
  recordUsage(recorders.usage, request, trace, result.status, started);
  if (request.method !== "HEAD" || result instanceof TextReply) return result;
  // A HEAD answer has no body: a stream the handler started is cancelled.
  void result.body?.cancel().catch(() => {});
  return new Response(null, { status: result.status, statusText: result.statusText, headers: result.headers });
}
