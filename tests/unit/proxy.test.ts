// proxy.ts on its own: the first wall and the security headers, including
// what only an https deployment gets (the e2e server runs on plain http).
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { cookieOptions, sessionCookieName } from "@/lib/auth/cookies";
import { crossOriginWrite } from "@/lib/security/form-origin";
import { generateApiKey } from "@/lib/keys/format";
import { proxy, config } from "@/proxy";

const originalBaseUrl = process.env.PUBLIC_BASE_URL;
afterEach(() => {
  process.env.PUBLIC_BASE_URL = originalBaseUrl;
});

describe("proxy", () => {
  it("refuses a key on an internal path with the catalog's 403, before anything else", async () => {
    const response = await proxy(new NextRequest("http://localhost/account", { headers: { "x-api-key": "sk_dev_x" } }));
    expect(response.status).toBe(403);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(await response.json()).toMatchObject({ error: { code: "api_key_not_allowed" } });
  });

  it("refuses a post from any other scheme, host or port than the deployment's, with 403", async () => {
    process.env.PUBLIC_BASE_URL = "http://127.0.0.1:4242";
    const post = async (origin: string | null, method = "POST") =>
      (
        await proxy(
          new NextRequest("http://127.0.0.1:4242/sign-in", {
            method,
            headers: { host: "127.0.0.1:4242", ...(origin === null ? {} : { origin }) },
          }),
        )
      ).status;
    // The screens before this one (server.mjs, Next) compare hosts only: these passed them.
    for (const origin of [
      "https://127.0.0.1:4242",
      "HTTP://127.0.0.1:4243",
      "http://127.0.0.1",
      "http://127.0.0.1:80",
      "http://localhost:4242",
      "http://127.0.0.1:4242/",
      "http://user@127.0.0.1:4242",
      "null",
      "",
      "127.0.0.1:4242",
    ]) {
      expect(await post(origin), origin).toBe(403);
    }
    for (const method of ["PUT", "DELETE", "PATCH"])
      expect(await post("https://evil.example", method), method).toBe(403);
    // The deployment's own origin (however its case is written), no Origin at all, and reads pass.
    for (const origin of ["http://127.0.0.1:4242", "HTTP://127.0.0.1:4242", null])
      expect(await post(origin), origin!).toBe(200);
    expect(await post("https://evil.example", "GET")).toBe(200);
  });

  it("refuses a post whose Host names another origin on an https deployment, even with a matching Host", async () => {
    process.env.PUBLIC_BASE_URL = "https://keyport.example";
    const post = async (origin: string, host: string) =>
      (await proxy(new NextRequest(`https://${host}/dashboard`, { method: "POST", headers: { origin, host } }))).status;
    expect(await post("https://keyport.example", "10.0.0.5:3000")).toBe(200);
    expect(await post("http://keyport.example", "keyport.example")).toBe(403);
    expect(await post("https://keyport.example:8443", "keyport.example:8443")).toBe(403);
    expect(await post("https://10.0.0.5:3000", "10.0.0.5:3000")).toBe(403);
  });

  it("in development also takes the address the developer opened, with the deployment's scheme only", () => {
    const context = { baseUrl: "http://localhost:3000", host: "127.0.0.1:3000", development: true };
    expect(crossOriginWrite("POST", "http://127.0.0.1:3000", context)).toBe(false);
    expect(crossOriginWrite("POST", "https://127.0.0.1:3000", context)).toBe(true);
    expect(crossOriginWrite("POST", "http://127.0.0.1:3001", context)).toBe(true);
    expect(crossOriginWrite("POST", "http://127.0.0.1:3000", { ...context, development: false })).toBe(true);
  });

  it("refuses a key however far into a credential header it sits, beside a session cookie", async () => {
    const headers = {
      authorization: `Basic ${"A".repeat(9_000)} ${generateApiKey("dev")}`,
      cookie: "keyport.session=x",
    };
    const response = await proxy(new NextRequest("http://localhost/dashboard", { headers }));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: "api_key_not_allowed" } });
  });

  it("sends HSTS only when the deployment is https", async () => {
    process.env.PUBLIC_BASE_URL = "https://keyport.example";
    expect((await proxy(new NextRequest("https://keyport.example/"))).headers.get("strict-transport-security")).toMatch(
      /max-age=\d+/,
    );
    process.env.PUBLIC_BASE_URL = "http://localhost:3000";
    expect(
      (await proxy(new NextRequest("http://localhost:3000/"))).headers.get("strict-transport-security"),
    ).toBeNull();
  });

  it("gives pages behind sign-in a fresh nonce and the static pages the documented exception", async () => {
    const signIn =
      (await proxy(new NextRequest("http://localhost/sign-in"))).headers.get("content-security-policy") ?? "";
    expect(signIn).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    for (const path of ["/forgot-password", "/reset-password?token=x", "/sign-up/confirm?token=x"]) {
      const csp =
        (await proxy(new NextRequest(`http://localhost${path}`))).headers.get("content-security-policy") ?? "";
      expect(csp, path).toMatch(/'nonce-[^']+'/);
    }
    const landing = (await proxy(new NextRequest("http://localhost/"))).headers.get("content-security-policy") ?? "";
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
