// The sign-in page's query parameters, which anyone can put in a link.
const TOO_MANY_ATTEMPTS = /^Too many attempts\. Try again at \d\d:\d\d UTC\.$/;
export const INVALID_CREDENTIALS_MESSAGE = "The email or password is not right.";

/**
 * Where to go after signing in: only a path on this site. Anything a browser
 * could read as another origin ("//evil", "/\evil", control characters)
 * falls back to the dashboard.
 */
export function safeCallbackPath(value: string | string[] | undefined): string {
  const path = Array.isArray(value) ? value[0] : value;
  if (!path || !path.startsWith("/") || /[\\\u0000-\u001f\u007f]/.test(path)) return "/dashboard";
  const base = "http://keyport.invalid";
  const url = new URL(path, base);
  if (url.origin !== base) return "/dashboard";
  // Dot segments are resolved by URL: "/.//evil.example" comes out as "//evil.example", which a browser reads
  // as another origin. Check the result, not only the input.
  const result = `${url.pathname}${url.search}${url.hash}`;
  return /^\/[\\/]/.test(result) ? "/dashboard" : result;
}

/** Only messages the sign-in itself produces are shown; a crafted ?error= gets a generic one. */
export function knownSignInError(value: string | string[] | undefined): string | undefined {
  if (typeof value !== "string" || value === "CredentialsSignin") return undefined;
  if (value === INVALID_CREDENTIALS_MESSAGE || TOO_MANY_ATTEMPTS.test(value)) return value;
  return "Sign-in failed. Try again.";
}

/** Sign-up's answer for a taken email; the form puts a "Sign in instead" link after it. */
export const EMAIL_TAKEN_MESSAGE = "An account with this email already exists.";

/**
 * A callbackUrl as next-auth may see it: an absolute URL on this deployment.
 * next-auth 4 answers 500 (and logs the input) on one it cannot parse, such
 * as "http://x:99999"; anything not on our origin becomes the dashboard.
 */
export function normaliseCallbackUrl(value: string, baseUrl: string): string {
  const base = new URL(baseUrl);
  let path = "/dashboard";
  if (value.startsWith("/")) {
    path = safeCallbackPath(value);
  } else {
    try {
      const url = new URL(value);
      if (url.origin === base.origin) path = safeCallbackPath(`${url.pathname}${url.search}${url.hash}`);
    } catch {
      // Unparseable: the dashboard.
    }
  }
  return new URL(path, base).toString();
}
