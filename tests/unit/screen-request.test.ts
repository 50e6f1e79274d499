// What server.mjs does before Next's router: requests Next would fail on are
// answered; the public API's requests go on to the gate as they came.
import { describe, expect, it } from "vitest";
import { PEER_IP_HEADER, screenRequest } from "@/lib/http/screen-request.mjs";

function request(method: string, url: string, extra: Record<string, string> = {}) {
  const headers: Record<string, string | string[] | undefined> = { host: "localhost:3000", ...extra };
  return { method, url, headers, socket: { remoteAddress: "::1" } };
}

describe("screenRequest", () => {
  it("writes the socket's address over any client-sent one", () => {
    const req = request("GET", "/", { [PEER_IP_HEADER]: "203.0.113.9" });
    expect(screenRequest(req)).toBeNull();
    expect(req.headers[PEER_IP_HEADER]).toBe("::1");
  });

  it("leaves a malformed path under the public API as it came, for the gate, and answers it elsewhere", () => {
    const api = request("GET", "/api/v1/generations/%E0%A4%A?x=1");
    expect(screenRequest(api)).toBeNull();
    expect(api.url).toBe("/api/v1/generations/%E0%A4%A?x=1");
    const beta = request("GET", "/api/v1beta/%");
    expect(screenRequest(beta)).toBeNull();
    expect(beta.url).toBe("/api/v1beta/%");
    for (const path of ["/docs/routes/%", "/api/auth/%", "/%E0%A4%A"]) {
      const answer = screenRequest(request("GET", path));
      expect(answer?.status, path).toBe(400);
      expect(answer?.headers["Content-Type"]).toMatch(/^text\/html/);
      expect(answer?.body).not.toContain("%E0");
    }
  });

  it("leaves TRACE to the gate on the public API, and answers it with 405 elsewhere", () => {
    const api = request("TRACE", "/api/v1/models");
    expect(screenRequest(api)).toBeNull();
    expect(api.method).toBe("TRACE");
    const page = screenRequest(request("TRACE", "/account"));
    expect(page?.status).toBe(405);
    expect(page?.headers.Allow).toBe("GET, HEAD, POST");
    expect(screenRequest(request("DELETE", "/api/v1/models"))).toBeNull();
  });

  it("refuses a cross-origin server action with 403, and trusts X-Forwarded-Host only behind a trusted proxy", () => {
    const action = (headers: Record<string, string>) =>
      request("POST", "/dashboard", { "next-action": "abc", ...headers });
    expect(screenRequest(action({ origin: "http://localhost:3000" }))).toBeNull();
    expect(screenRequest(action({}))).toBeNull();
    for (const origin of ["http://evil.example", "null", "http://localhost:3001", "http://localhost.evil.example"]) {
      expect(screenRequest(action({ origin }))?.status, origin).toBe(403);
    }
    const spoofed = action({ origin: "http://evil.example", "x-forwarded-host": "evil.example" });
    expect(screenRequest(spoofed)?.status).toBe(403);
    expect(spoofed.headers["x-forwarded-host"]).toBeUndefined();
    const proxied = action({ origin: "https://keyport.example", "x-forwarded-host": "keyport.example" });
    expect(screenRequest(proxied, { trustProxy: 1, publicBaseUrl: "https://keyport.example" })).toBeNull();
    // PUBLIC_BASE_URL's host is allowed even when the Host header names the instance.
    expect(
      screenRequest(action({ origin: "https://keyport.example" }), { publicBaseUrl: "https://keyport.example" }),
    ).toBeNull();
  });

  it("resolves dot segments the way Next routes them, so nothing reaches the API unscreened", () => {
    const sneaky = request("TRACE", "/x/%2e%2e/api/v1/models?a=1");
    expect(screenRequest(sneaky)).toBeNull();
    expect(sneaky.url).toBe("/api/v1/models?a=1");
    expect(sneaky.method).toBe("TRACE");
    // And out of it: this is no API path, so TRACE gets the page's 405.
    expect(screenRequest(request("TRACE", "/api/v1/%2e%2e/%2e%2e/dashboard"))?.status).toBe(405);
  });

  it("answers a path whose backslash reads as a host with 400, rather than throwing", () => {
    for (const url of ["/\\@", "/\\\\", "/\\[", "/\\a:b", "/\\x:1x", "/\\@/api/v1/models"]) {
      expect(screenRequest(request("GET", url))?.status, url).toBe(400);
    }
  });

  it("answers a request target that is not a path with 400", () => {
    for (const target of ["*", "http://evil/dashboard", "//evil/x"]) {
      expect(screenRequest(request("GET", target))?.status, target).toBe(400);
    }
  });

  it("refuses any cross-origin POST off the public API, action header or not, and leaves the API to the gate", () => {
    const post = (path: string, headers: Record<string, string>) => request("POST", path, headers);
    expect(screenRequest(post("/sign-in", { origin: "https://evil.example" }))?.status).toBe(403);
    expect(screenRequest(post("/dashboard", { origin: "https://evil.example", "next-action": "" }))?.status).toBe(403);
    expect(screenRequest(post("/sign-in", { origin: "http://LOCALHOST:3000" }))).toBeNull();
    expect(screenRequest(post("/api/v1/files", { origin: "https://evil.example" }))).toBeNull();
  });

  it("sends HSTS on its own pages when the deployment is https", () => {
    const answer = screenRequest(request("TRACE", "/"), { publicBaseUrl: "https://keyport.example" });
    expect(answer?.headers["Strict-Transport-Security"]).toMatch(/max-age=/);
  });

  it("refuses a repeated Authorization or Proxy-Authorization header off the public API (Node keeps only the first)", () => {
    const withRaw = (path: string, rawHeaders: string[]) => ({ ...request("GET", path), rawHeaders });
    for (const name of ["Authorization", "proxy-authorization"]) {
      const twice = withRaw("/dashboard", [name, "Basic dTpw", name, "Bearer sk_dev_x"]);
      expect(screenRequest(twice)?.status, name).toBe(400);
    }
    // One of each is fine, and the public API judges its own headers (the gate refuses two keys).
    expect(screenRequest(withRaw("/dashboard", ["Authorization", "Basic dTpw", "X-API-Key", "k"]))).toBeNull();
    expect(screenRequest(withRaw("/api/v1/models", ["Authorization", "a", "Authorization", "b"]))).toBeNull();
  });
});
