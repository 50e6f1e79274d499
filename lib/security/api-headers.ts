// The security headers of every public API answer. next.config.ts sends the
// same to the pages (and to the API when Next serves it, under `next start`);
// server.mjs serves the API outside Next, so the gate sets them itself.
export const API_SECURITY_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  // JSON only: nothing here may load, run or be framed.
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
} as const;
