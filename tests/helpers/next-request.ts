// Next's request APIs for server actions called in the integration tests: the
// request's headers and a cookie jar that a test sets, and redirect() and
// forbidden() that throw as Next's do. A test file mocks them with:
//
//   vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
//   vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
//
// A library that require()s next/headers itself (next-auth's route handler) is
// not reached by vi.mock: nextHeadersInRequire() puts the same two functions
// into the CommonJS module it gets.
import { createRequire } from "node:module";
import { onTestFinished, vi } from "vitest";

export const request = { headers: new Headers(), cookies: new Map<string, string>() };

export const nextHeaders = {
  headers: async () => request.headers,
  cookies: async () => ({
    get: (name: string) => (request.cookies.has(name) ? { name, value: request.cookies.get(name)! } : undefined),
    getAll: () => [...request.cookies].map(([name, value]) => ({ name, value })),
    set: (name: string, value: string) => void request.cookies.set(name, value),
    delete: (name: string) => void request.cookies.delete(name),
  }),
};

export const nextNavigation = {
  redirect: (url: string) => {
    throw new Error(`NEXT_REDIRECT ${url}`);
  },
  forbidden: () => {
    throw new Error("NEXT_FORBIDDEN");
  },
  // As Next's: the navigation errors above pass through an action's own error handling.
  unstable_rethrow: (error: unknown) => {
    if (error instanceof Error && /^NEXT_(REDIRECT|FORBIDDEN)/.test(error.message)) throw error;
  },
};

/** A form as a browser posts it to a server action. */
export function formOf(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

/** The next server action runs as this person: a new session's cookie, and a browser at `ip`. */
export async function actAs(userId: string, ip = "192.0.2.10"): Promise<void> {
  const { createSession } = await import("@/lib/auth/session-store");
  const session = await createSession(userId, ip, "Vitest");
  request.cookies = new Map([["keyport.session", session.sessionToken]]);
  request.headers = new Headers({ "user-agent": "Vitest", "x-keyport-peer-ip": ip });
}

/**
 * Makes `require("next/headers")` (as next-auth's route handler calls it) answer from the test's request too, until
 * the calling test ends.
 */
export function nextHeadersInRequire(): void {
  const required = createRequire(import.meta.url)("next/headers") as typeof nextHeaders;
  const spies = [
    vi.spyOn(required, "headers").mockImplementation(nextHeaders.headers),
    vi.spyOn(required, "cookies").mockImplementation(nextHeaders.cookies as never),
  ];
  onTestFinished(() => spies.forEach((spy) => spy.mockRestore()));
}
