// Content Security Policy. Pages that show secrets or need a session render
// per request with a nonce and allow no inline script. The static pages
// (landing, docs) are prerendered once, so no per-request nonce can reach
// them: they allow Next's inline bootstrap scripts with 'unsafe-inline', a
// documented exception (docs/security.md, "Security headers"). Both forbid framing,
// plugins and <base>.
const NONCE_PATHS = [
  "/sign-in",
  "/sign-up",
  "/forgot-password",
  "/reset-password",
  "/report-a-key",
  "/dashboard",
  "/account",
];

export function needsNonce(pathname: string): boolean {
  return NONCE_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`));
}

export function contentSecurityPolicy(nonce: string | null): string {
  const dev = process.env.NODE_ENV === "development";
  const scripts = nonce
    ? `'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`
    : `'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`;
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${dev ? " ws:" : ""}`,
    "frame-ancestors 'none'",
    "form-action 'self'",
    "object-src 'none'",
    "base-uri 'none'",
  ].join("; ");
}
