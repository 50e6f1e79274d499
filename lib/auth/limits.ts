// The numbers behind the login lockout and the sessions (docs/security.md, "Accounts and sessions"). The
// sign-up limit per IP is SIGN_UP_LIMIT_PER_HOUR (lib/env-schema.ts).
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_MAX_FAILURES = 10;
export const SIGN_UP_WINDOW_MS = 60 * 60 * 1000;

export const SESSION_IDLE_TIMEOUT_MS = 7 * 24 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
export const SESSION_TOUCH_INTERVAL_MS = 60 * 1000;
