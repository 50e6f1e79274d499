// The public API's routes: the only 13 routes that accept an API key (the
// seed's part 4). The gate decides from this list what may carry a key and
// how to read each request; the docs, the OpenAPI document and the tests read
// it too. This file stays free of server code (the proxy and the static docs
// import it); each handler is defined from its entry's schemas
// (lib/public-api/define-handler.ts) and joined in lib/public-api/route-handlers.ts.
import { z } from "zod";
import { errorCodes as ERROR_ORDER, type ErrorCode } from "../errors/error-catalog";
import { uploadFormSchema } from "./file-schemas";
import { createAppGenerationRequestSchema, createGenerationRequestSchema } from "./generation-schemas";
import { chatCompletionRequestSchema, generateContentRequestSchema, messagesRequestSchema } from "./model-schemas";
import {
  chatCompletionSchema,
  fileSchema,
  generateContentResponseSchema,
  generationSchema,
  messageSchema,
} from "./openapi/response-schemas";
import { SCOPE_NAMES, type Scope } from "../keys/scopes";
import { appListSchema, appSchema, listQuerySchema, mediaModelListSchema, modelListSchema } from "./schemas";

export type HttpMethod = "GET" | "POST";
export type BodyKind = "json" | "multipart";
export type ApiVersion = "v1" | "v1beta";

/**
 * What a route answers when it succeeds: the one statement of its status and
 * body, which the handler, the docs' examples and the OpenAPI document read.
 */
export interface RouteSuccess {
  status: 200 | 201;
  description: string;
  /** The JSON body; unset, the route's `response` (which is also parsed before it is sent). */
  json?: z.ZodType;
  /** A stream of server-sent events the route answers with (when asked to stream), described. */
  eventStream?: string;
  /** An Idempotency-Key replay answers the same, with Idempotent-Replayed: true. */
  replayable?: boolean;
}

export interface PublicRoute {
  /** Stable identifier, used for docs anchors and logs. */
  name: string;
  method: HttpMethod;
  /** Path shape as the seed writes it, with [param] segments. */
  path: string;
  summary: string;
  /** What a key must hold to call this route (lib/public-api/scopes.ts); the gate, the docs and OpenAPI read it here. */
  scope: Scope;
  /** The body a POST takes: JSON (1 MiB by default) or a multipart upload (20 MiB). */
  body?: BodyKind;
  /** The [param] segments of `path`, one key each; a matching path always passes. */
  params?: z.ZodObject;
  /** Query parameters, validated before the handler runs. */
  query?: typeof listQuerySchema;
  /** The JSON body, validated before the handler runs (400 invalid_request with param). */
  request?: z.ZodType;
  /** The multipart form's fields: the handler streams the body, then validates what it received with this. */
  form?: z.ZodObject;
  /** The 200 body; the handler's output is parsed through it before it is sent. */
  response?: z.ZodType;
  /** What the route answers on success. */
  success: RouteSuccess;
  /** Codes only this route's handler answers with (the gate's own codes are added by routeErrors). */
  errors?: readonly ErrorCode[];
  /** True when the route answers with a stream (server-sent events or a streamed JSON array). */
  streams?: boolean;
}

export const publicRoutes = [
  {
    name: "list_media_models",
    scope: "catalog:read",
    method: "GET",
    path: "/api/v1/media_models",
    summary: "List the media models.",
    query: listQuerySchema,
    response: mediaModelListSchema,
    success: { status: 200, description: "One page of the media models." },
  },
  {
    name: "list_apps",
    scope: "catalog:read",
    method: "GET",
    path: "/api/v1/apps",
    summary: "List the apps.",
    query: listQuerySchema,
    response: appListSchema,
    success: { status: 200, description: "One page of the apps." },
  },
  {
    name: "get_app",
    scope: "catalog:read",
    method: "GET",
    path: "/api/v1/apps/[app]",
    summary: "Read one app.",
    params: z.object({ app: z.string() }),
    response: appSchema,
    errors: ["not_found"],
    success: { status: 200, description: "The app." },
  },
  {
    name: "list_models",
    scope: "catalog:read",
    method: "GET",
    path: "/api/v1/models",
    summary: "List the text models.",
    query: listQuerySchema,
    response: modelListSchema,
    success: { status: 200, description: "One page of the text models." },
  },
  {
    name: "create_chat_completion",
    scope: "models:invoke",
    method: "POST",
    path: "/api/v1/chat/completions",
    summary: "Create a chat completion.",
    body: "json",
    request: chatCompletionRequestSchema,
    success: {
      status: 200,
      description: "The completion, in OpenAI's Chat Completions format; a stream of events with `stream: true`.",
      json: chatCompletionSchema,
      eventStream: "`data:` lines holding chat.completion.chunk objects, then `data: [DONE]`.",
    },
  },
  {
    name: "create_message",
    scope: "models:invoke",
    method: "POST",
    path: "/api/v1/messages",
    summary: "Create a message.",
    body: "json",
    request: messagesRequestSchema,
    success: {
      status: 200,
      description: "The message, in Anthropic's Messages format; a stream of events with `stream: true`.",
      json: messageSchema,
      eventStream: "Named events: message_start, content_block_start, content_block_delta…, message_stop.",
    },
  },
  {
    name: "generate_content",
    scope: "models:invoke",
    method: "POST",
    path: "/api/v1beta/models/[model]:generateContent",
    summary: "Generate content in one response.",
    params: z.object({ model: z.string() }),
    body: "json",
    request: generateContentRequestSchema,
    success: {
      status: 200,
      description: "The reply, in Gemini's generateContent format.",
      json: generateContentResponseSchema,
    },
  },
  {
    name: "stream_generate_content",
    scope: "models:invoke",
    method: "POST",
    path: "/api/v1beta/models/[model]:streamGenerateContent",
    summary: "Generate content as a stream.",
    params: z.object({ model: z.string() }),
    body: "json",
    request: generateContentRequestSchema,
    streams: true,
    success: {
      status: 200,
      description: "With `?alt=sse`, server-sent events; otherwise a JSON array streamed one element at a time.",
      json: z.array(generateContentResponseSchema),
      eventStream: "`data:` lines, each holding a GenerateContentResponse.",
    },
  },
  {
    name: "upload_file",
    scope: "files:write",
    method: "POST",
    path: "/api/v1/files",
    summary: "Upload a file.",
    body: "multipart",
    form: uploadFormSchema,
    errors: ["api_key_misplaced", "storage_quota_exceeded"],
    success: { status: 200, description: "The stored file.", json: fileSchema },
  },
  {
    name: "create_generation",
    scope: "generations:write",
    method: "POST",
    path: "/api/v1/generations",
    summary: "Create a generation.",
    body: "json",
    request: createGenerationRequestSchema,
    errors: ["api_key_misplaced", "not_found", "idempotency_key_mismatch"],
    success: {
      status: 201,
      description: "The generation, queued (or the earlier one, replayed).",
      json: generationSchema,
      replayable: true,
    },
  },
  {
    name: "get_generation",
    scope: "generations:read",
    method: "GET",
    path: "/api/v1/generations/[id]",
    summary: "Read a generation.",
    params: z.object({ id: z.string() }),
    errors: ["not_found"],
    success: { status: 200, description: "The generation.", json: generationSchema },
  },
  {
    name: "create_app_generation",
    scope: "generations:write",
    method: "POST",
    path: "/api/v1/apps/[app]/generations",
    summary: "Create a generation with an app.",
    params: z.object({ app: z.string() }),
    body: "json",
    request: createAppGenerationRequestSchema,
    errors: ["api_key_misplaced", "not_found", "idempotency_key_mismatch"],
    success: {
      status: 201,
      description: "The generation, queued (or the earlier one, replayed).",
      json: generationSchema,
      replayable: true,
    },
  },
  {
    name: "get_app_generation",
    scope: "generations:read",
    method: "GET",
    path: "/api/v1/apps/[app]/generations/[id]",
    summary: "Read a generation of an app.",
    params: z.object({ app: z.string(), id: z.string() }),
    errors: ["not_found"],
    success: { status: 200, description: "The generation.", json: generationSchema },
  },
] as const satisfies readonly PublicRoute[];

/** One registry entry, with its own schemas' types (a `PublicRoute` forgets them). */
export type RegisteredRoute = (typeof publicRoutes)[number];
export type RouteName = RegisteredRoute["name"];

/**
 * Every error code a route can answer with, in the catalog's order: the
 * gate's checks (credentials, rate limit, method, key in the URL, outages),
 * the body and query checks the route's shape implies, and the codes its
 * handler declares. The docs and the OpenAPI document list these; the gate
 * matrix test checks that the gate answers nothing else.
 */
export function routeErrors(route: PublicRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>([
    "invalid_request",
    "missing_api_key",
    "invalid_api_key",
    "revoked_api_key",
    "expired_api_key",
    "ip_not_allowed",
    "insufficient_scope",
    "method_not_allowed",
    "rate_limited",
    "internal_error",
    "service_unavailable",
    ...(route.errors ?? []),
  ]);
  if (route.body) {
    codes.add("payload_too_large");
    codes.add("unsupported_media_type");
  }
  return ERROR_ORDER.filter((code) => codes.has(code));
}

/** The path as clients and OpenAPI write it: [param] becomes {param}. */
export function templatePath(path: string): string {
  return path.replace(/\[([a-z]+)\]/g, "{$1}");
}

/** The [param] names of a registry path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\[([a-z]+)\]/g)].map((match) => match[1]!);
}

/** What each path parameter holds; the docs and the OpenAPI document both say it. */
export const pathParamDescriptions: Record<string, string> = {
  app: "An app's id, as GET /api/v1/apps lists it (for example poster-studio).",
  id: "A generation's id (gen_...), from the call that created it.",
  model: "A text model's id, as GET /api/v1/models lists it.",
};

export function versionOf(route: PublicRoute): ApiVersion {
  return route.path.startsWith("/api/v1beta/") ? "v1beta" : "v1";
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|\\]/g, "\\$&");
}

/** A regular expression for a route's path shape; each [param] matches one non-empty segment. */
export function pathPattern(path: string): RegExp {
  const source = path
    .split(/(\[[a-z]+\])/)
    .map((part) => (/^\[[a-z]+\]$/.test(part) ? "([^/]+?)" : escapeRegExp(part)))
    .join("");
  return new RegExp(`^${source}$`);
}

// Compiled once: matching runs on every request.
const compiled = publicRoutes.map((route) => ({
  route,
  pattern: pathPattern(route.path),
  names: [...route.path.matchAll(/\[([a-z]+)\]/g)].map((m) => m[1]!),
}));
const compiledByPath = new Map<string, (typeof compiled)[number]>(compiled.map((entry) => [entry.route.path, entry]));

/** The routes whose path shape matches a concrete path (any method). */
export function routesForPath(pathname: string): RegisteredRoute[] {
  // A path with a malformed percent escape names no resource: 404, whatever follows.
  if (pathname.includes("%") && !decodable(pathname)) return [];
  return compiled.filter(({ pattern }) => pattern.test(pathname)).map(({ route }) => route);
}

/** The [param] values of a concrete path, by name, for a route that matches it. */
export function pathParams(route: PublicRoute, pathname: string): Record<string, string> {
  const { pattern, names } = compiledByPath.get(route.path) ?? { pattern: pathPattern(route.path), names: [] };
  const values = pattern.exec(pathname)?.slice(1) ?? [];
  return Object.fromEntries(names.map((name, i) => [name, safeDecode(values[i] ?? "")]));
}

function decodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** A malformed escape (%E0) stays as sent: the lookup then finds nothing, rather than failing. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The scope each route needs, by route name (what usage records): for the usage signals' scope suggestion. */
export function routeScopes(): ReadonlyMap<string, Scope> {
  return new Map(publicRoutes.map((route) => [route.name as string, route.scope]));
}

/** Each scope's routes as "METHOD /path", in the registry's order: what a key with that scope can call. */
export function routesByScope(): Record<Scope, string[]> {
  const byScope = Object.fromEntries(SCOPE_NAMES.map((scope) => [scope, [] as string[]])) as Record<Scope, string[]>;
  for (const route of publicRoutes) byScope[route.scope].push(`${route.method} ${templatePath(route.path)}`);
  return byScope;
}
