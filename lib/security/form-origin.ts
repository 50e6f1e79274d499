// The cross-site check for form posts and server actions, made in proxy.ts on
// every request Next serves. The screens before it compare hosts only
// (server.mjs's screenRequest, and Next's own serverActions.allowedOrigins), so
// an Origin of "https://127.0.0.1:4242" passed on an http deployment at that
// address: another scheme is another origin (a page on http:// must not act on
// https://, and the reverse), and so is another port. Here the Origin must be
// the deployment's origin (PUBLIC_BASE_URL): scheme, host and port.

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** An Origin header as a browser writes it: exactly a serialised origin, case aside. */
function serialisedOrigin(header: string): string | null {
  try {
    const origin = new URL(header).origin;
    // "null" (an opaque origin) parses to no origin at all; a path, a user or a
    // spelt-out default port is nothing a browser sends.
    return origin !== "null" && origin === header.toLowerCase() ? origin : null;
  } catch {
    return null;
  }
}

export interface FormOriginContext {
  /** PUBLIC_BASE_URL. */
  baseUrl: string;
  /** The request's Host header: accepted (with the deployment's scheme) in development only. */
  host?: string | null;
  development?: boolean;
}

/**
 * Whether a request that can change something (any method but GET, HEAD and
 * OPTIONS) came from another origin. A request with no Origin passes, as in
 * Next's own check: browsers send one on every such request, so its absence
 * means a client that is not a browser, which carries no one else's cookies.
 */
export function crossOriginWrite(method: string, originHeader: string | null, context: FormOriginContext): boolean {
  if (SAFE_METHODS.has(method.toUpperCase()) || originHeader === null) return false;
  const origin = serialisedOrigin(originHeader);
  if (!origin) return true;
  const deployment = new URL(context.baseUrl);
  if (origin === deployment.origin) return false;
  // `npm run dev` is opened at localhost or 127.0.0.1 whatever PUBLIC_BASE_URL says (next.config.ts).
  if (context.development && context.host) {
    const own = serialisedOrigin(`${deployment.protocol}//${context.host}`);
    return origin !== own;
  }
  return true;
}
