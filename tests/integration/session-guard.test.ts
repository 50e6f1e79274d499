// The session guard on its own, with proxy.ts out of the picture: a request
// that reaches a page, action or handler directly must still be refused.
import { beforeEach, describe, expect, it, vi } from "vitest";

const request = vi.hoisted(() => ({ headers: new Headers(), cookies: new Map<string, string>() }));

vi.mock("next/headers", () => ({
  headers: async () => request.headers,
  cookies: async () => ({
    get: (name: string) => (request.cookies.has(name) ? { name, value: request.cookies.get(name) } : undefined),
  }),
}));
vi.mock("next/navigation", () => ({
  forbidden: () => {
    throw new Error("NEXT_FORBIDDEN");
  },
  redirect: (url: string) => {
    throw new Error(`NEXT_REDIRECT ${url}`);
  },
}));

const { requireActionSession, requireApiSession, requirePageSession } = await import("@/lib/web/guard");
const { createAccount } = await import("@/lib/auth/accounts");
const { createSession } = await import("@/lib/auth/session-store");
const { generateApiKey } = await import("@/lib/keys/format");

const keyHeaders = [
  ["x-api-key", "<any value counts>"],
  ["authorization", "Bearer sk_prod_anything"],
  ["Authorization", "bearer whatever-is-sent"],
] as const;

let validToken = "";

beforeEach(async () => {
  request.headers = new Headers();
  request.cookies = new Map();
  if (!validToken) {
    const result = await createAccount(`guard-${Date.now()}@example.com`, "a long enough password");
    if (!result.ok) throw new Error(result.error);
    validToken = (await createSession(result.userId, "192.0.2.77", null)).sessionToken;
  }
});

describe("the session guard without the proxy", () => {
  it.each(keyHeaders)("refuses a key in %s even beside a valid session cookie", async (name, value) => {
    request.headers.set(name, value);
    request.cookies.set("keyport.session", validToken);

    await expect(requirePageSession("/dashboard")).rejects.toThrow("NEXT_FORBIDDEN");
    expect(await requireActionSession()).toEqual({
      ok: false,
      error: expect.stringMatching(/API keys work only on the public API/),
    });

    const response = await requireApiSession(new Request("http://localhost/internal", { headers: request.headers }));
    expect(response).toBeInstanceOf(Response);
    const refused = response as Response;
    expect(refused.status).toBe(403);
    expect(refused.headers.get("x-request-id")).toMatch(/^req_/);
    expect(await refused.json()).toMatchObject({ error: { code: "api_key_not_allowed", type: "permission_error" } });
  });

  // The wall reads the whole of a header, up to what the server accepts: it used to stop at 8 KiB.
  it.each([
    ["after 9,000 characters of padding", `Basic ${"A".repeat(9_000)} ${generateApiKey("dev")}`],
    ["at the end of 15 KiB", `Basic ${"A".repeat(15_000)} ${btoa(`u:${generateApiKey("prod")}`)}`],
  ])("refuses a key %s in Authorization beside a valid session cookie", async (_where, value) => {
    request.headers.set("authorization", value);
    request.cookies.set("keyport.session", validToken);

    await expect(requirePageSession("/dashboard")).rejects.toThrow("NEXT_FORBIDDEN");
    expect(await requireActionSession()).toMatchObject({ ok: false });
    const refused = (await requireApiSession(
      new Request("http://localhost/internal", { headers: request.headers }),
    )) as Response;
    expect(refused.status).toBe(403);
  });

  it("refuses a request without a session", async () => {
    await expect(requirePageSession("/account")).rejects.toThrow("NEXT_REDIRECT /sign-in?callbackUrl=%2Faccount");
    expect(await requireActionSession()).toEqual({ ok: false, error: "Your session has ended. Sign in again." });
    const response = (await requireApiSession(new Request("http://localhost/internal"))) as Response;
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: "session_required", type: "authentication_error" } });
  });

  it("refuses an unknown session token", async () => {
    request.cookies.set("keyport.session", "forged-token");
    expect(await requireActionSession()).toMatchObject({ ok: false });
  });

  it("lets a valid session without a key through", async () => {
    request.cookies.set("keyport.session", validToken);
    expect(await requirePageSession("/dashboard")).toMatchObject({ sessionToken: validToken });
    expect(await requireActionSession()).toMatchObject({ ok: true });
  });
});
