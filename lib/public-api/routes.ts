// The public API's routes: the only 13 routes that accept an API key (the
// seed's part 4). The gate decides from this list what may carry a key; the
// docs, the OpenAPI document and the tests read it too. Handlers and schemas
// join each entry as the routes are built.

export type HttpMethod = "GET" | "POST";
export type ApiVersion = "v1" | "v1beta";

export interface PublicRoute {
  /** Stable identifier, used for docs anchors and logs. */
  name: string;
  method: HttpMethod;
  /** Path shape as the seed writes it, with [param] segments. */
  path: string;
  summary: string;
}

export const PUBLIC_API_PREFIXES = ["/api/v1", "/api/v1beta"] as const;

export const publicRoutes = [
  { name: "list_media_models", method: "GET", path: "/api/v1/media_models", summary: "List the media models." },
  { name: "list_apps", method: "GET", path: "/api/v1/apps", summary: "List the apps." },
  { name: "get_app", method: "GET", path: "/api/v1/apps/[app]", summary: "Read one app." },
  { name: "list_models", method: "GET", path: "/api/v1/models", summary: "List the text models." },
  {
    name: "create_chat_completion",
    method: "POST",
    path: "/api/v1/chat/completions",
    summary: "Create a chat completion.",
  },
  { name: "create_message", method: "POST", path: "/api/v1/messages", summary: "Create a message." },
  {
    name: "generate_content",
    method: "POST",
    path: "/api/v1beta/models/[model]:generateContent",
    summary: "Generate content in one response.",
  },
  {
    name: "stream_generate_content",
    method: "POST",
    path: "/api/v1beta/models/[model]:streamGenerateContent",
    summary: "Generate content as a stream.",
  },
  { name: "upload_file", method: "POST", path: "/api/v1/files", summary: "Upload a file." },
  { name: "create_generation", method: "POST", path: "/api/v1/generations", summary: "Create a generation." },
  { name: "get_generation", method: "GET", path: "/api/v1/generations/[id]", summary: "Read a generation." },
  {
    name: "create_app_generation",
    method: "POST",
    path: "/api/v1/apps/[app]/generations",
    summary: "Create a generation with an app.",
  },
  {
    name: "get_app_generation",
    method: "GET",
    path: "/api/v1/apps/[app]/generations/[id]",
    summary: "Read a generation of an app.",
  },
] as const satisfies readonly PublicRoute[];

/** True for every path in the public API's namespace; every other path is internal. */
export function isPublicApiPath(pathname: string): boolean {
  return PUBLIC_API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

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

/** The routes whose path shape matches a concrete path (any method). */
export function routesForPath(pathname: string): PublicRoute[] {
  return publicRoutes.filter((route) => pathPattern(route.path).test(pathname));
}
