import { holdsKeyShapedToken } from "../auth/api-key-headers";
import { holdsApiKey } from "../keys/key-in-text";
import { hasKeyPrefix } from "../keys/key-shaped";
import { ApiError } from "./api-error";
import { templatePath, type PublicRoute } from "./routes";
import { displayIp } from "../format-ip";

export const WWW_AUTHENTICATE = 'Bearer realm="keyport"';
export const WWW_AUTHENTICATE_INVALID = 'Bearer realm="keyport", error="invalid_token"';

/** RFC 6750 section 3.1: the key is valid but lacks the scope this route needs. */
export function insufficientScopeChallenge(scope: string): string {
  return `Bearer realm="keyport", error="insufficient_scope", scope="${scope}"`;
}

/** The message of 403 insufficient_scope: the scope, and the route that needs it. */
export function insufficientScopeMessage(route: Pick<PublicRoute, "scope" | "method" | "path">): string {
  return `This API key does not have the ${route.scope} scope, which ${route.method} ${templatePath(route.path)} needs.`;
}

/** The message of 403 ip_not_allowed: the address the gate saw (as a person reads it), never the allowlist. */
export function ipNotAllowedMessage(ip: string): string {
  return `This API key cannot be used from ${displayIp(ip)}: the address is not in the key's IP allowlist.`;
}

export const invalidKey = (message?: string) =>
  new ApiError("invalid_api_key", {
    headers: { "WWW-Authenticate": WWW_AUTHENTICATE_INVALID },
    ...(message ? { message } : {}),
  });

// The most common mistake: the key sent without its scheme, or under another
// one. Say how to send it, without echoing anything that was sent.
export const WRONG_SCHEME_MESSAGE =
  "The API key is not valid: send it as Authorization: Bearer <key>, or in the X-API-Key header.";

/**
 * The key a request presents: `Authorization: Bearer <key>` (scheme in any
 * case) or `X-API-Key: <key>`. Both with the same key is fine; two different
 * values are refused rather than guessed between. Another scheme (Basic, ...)
 * is an invalid key. Never echoes what was sent.
 */
export function presentedKey(headers: Headers): string {
  const authorization = headers.get("authorization");
  const headerKey = headers.get("x-api-key")?.trim();
  let bearer: string | undefined;
  if (authorization !== null) {
    const match = /^\s*(\S+)(?:\s+(.*))?$/.exec(authorization);
    if (!match || match[1]!.toLowerCase() !== "bearer") {
      throw invalidKey(holdsKeyShapedToken(authorization) ? WRONG_SCHEME_MESSAGE : undefined);
    }
    bearer = (match[2] ?? "").trim();
  }
  if (bearer !== undefined && headerKey !== undefined && bearer !== headerKey) {
    throw new ApiError("invalid_request", {
      message: "The Authorization and X-API-Key headers carry different keys. Send the key in one header.",
      param: "X-API-Key",
    });
  }
  const key = bearer ?? headerKey;
  if (key === undefined) {
    throw new ApiError("missing_api_key", { headers: { "WWW-Authenticate": WWW_AUTHENTICATE } });
  }
  if (key === "") throw invalidKey();
  return key;
}

/** Keys never go in a URL, where logs, proxies and browser history keep them. */
export function refuseKeyInUrl(url: URL): void {
  for (const [name, value] of url.searchParams) {
    if (name === "key" || name === "api_key" || hasKeyPrefix(value) || hasKeyPrefix(name)) {
      throw new ApiError("invalid_request", {
        message: "Send the API key in the Authorization or X-API-Key header, never in the URL. Rotate a key that was.",
        // Never echo a parameter name that is itself a key.
        param: hasKeyPrefix(name) ? "query" : name,
      });
    }
  }
}

/**
 * A value the API would store (an Idempotency-Key, an upload's file name or
 * purpose) must not hold a real key, anywhere in it or under any reading:
 * 400 api_key_misplaced naming where, and nothing is stored. Only a token
 * that passes the checksum counts (a file named sk_dev_notes2024.txt is
 * fine), and the key is not revoked: it was sent to us, not made public.
 * The message never echoes the value.
 */
export function refuseKeyInStoredValue(value: string | null | undefined, param: string, what: string): void {
  if (value && holdsApiKey(value)) {
    throw new ApiError("api_key_misplaced", {
      message: `${what} holds an API key. Nothing was stored; send the key only in the Authorization or X-API-Key header.`,
      param,
    });
  }
}
