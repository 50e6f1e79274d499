// proxy.ts on its own: the first wall and the security headers, including
// what only an https deployment gets (the e2e server runs on plain http).
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { cookieOptions, sessionCookieName } from "@/lib/auth/cookies";
import { generateApiKey } from "@/lib/keys/format";
import { proxy, config } from "@/proxy";

const originalBaseUrl = process.env.PUBLIC_BASE_URL;
afterEach(() => {
  process.env.PUBLIC_BASE_URL = originalBaseUrl;
});

describe("proxy", () => {
  it("refuses a key on an internal path with the catalog's 403, before anything else", async () => {
    const response = proxy(new NextRequest("http://localhost/account", { headers: { "x-api-key": "sk_dev_x" } }));
    expect(response.status).toBe(403);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(await response.json()).toMatchObject({ error: { code: "api_key_not_allowed" } });
  });

  it("refuses a key however far into a credential header it sits, beside a session cookie", async () => {
    const headers = {
      authorization: `Basic ${"A".repeat(9_000)} ${generateApiKey("dev")}`,
      cookie: "keyport.session=x",
    };
    const response = proxy(new NextRequest("http://localhost/dashboard", { headers }));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: "api_key_not_allowed" } });
  });

  it("sends HSTS only when the deployment is https", () => {
    process.env.PUBLIC_BASE_URL = "https://keyport.example";
    expect(proxy(new NextRequest("https://keyport.example/")).headers.get("strict-transport-security")).toMatch(
      /max-age=\d+/,
    );
    process.env.PUBLIC_BASE_URL = "http://localhost:3000";
    expect(proxy(new NextRequest("http://localhost:3000/")).headers.get("strict-transport-security")).toBeNull();
  });

  it("gives pages behind sign-in a fresh nonce and the static pages the documented exception", () => {
    const signIn = proxy(new NextRequest("http://localhost/sign-in")).headers.get("content-security-policy") ?? "";
    expect(signIn).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    for (const path of ["/forgot-password", "/reset-password?token=x", "/sign-up/confirm?token=x"]) {
      const csp = proxy(new NextRequest(`http://localhost${path}`)).headers.get("content-security-policy") ?? "";
      expect(csp, path).toMatch(/'nonce-[^']+'/);
    }
    const landing = proxy(new NextRequest("http://localhost/")).headers.get("content-security-policy") ?? "";
    expect(landing).toContain("script-src 'self' 'unsafe-inline'");
  });

  it("leaves the public API namespace to the gate", () => {
    const matcher = new RegExp(`^${config.matcher[0]!.replace("/((?!", "/(?!").replace(").*)", ").*")}$`);
    for (const path of ["/api/v1/models", "/api/v1beta/models/m:generateContent", "/api/v1", "/api/v1beta"]) {
      expect(matcher.test(path), path).toBe(false);
    }
    for (const path of ["/", "/dashboard", "/api/auth/session", "/healthz", "/api/v10", "/api/v1x/models"]) {
      expect(matcher.test(path), path).toBe(true);
    }
  });
});

describe("session cookie", () => {
  it("is __Host- and Secure on https, plain on http, HttpOnly and Lax on both", () => {
    expect(sessionCookieName("https://keyport.example")).toBe("__Host-keyport.session");
    expect(cookieOptions("https://keyport.example")).toEqual({
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: true,
    });
    expect(sessionCookieName("http://localhost:3000")).toBe("keyport.session");
    expect(cookieOptions("http://localhost:3000")).toMatchObject({
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: false,
    });
  });
});
