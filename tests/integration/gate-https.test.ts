// On an https deployment the public API sends HSTS too: proxy.ts, which sends
// it with every page, never sees /api/v1.
import { afterAll, describe, expect, it, vi } from "vitest";

const original = process.env.PUBLIC_BASE_URL;
afterAll(() => {
  process.env.PUBLIC_BASE_URL = original;
  vi.resetModules();
});

async function gateWith(baseUrl: string | undefined) {
  if (baseUrl === undefined) delete process.env.PUBLIC_BASE_URL;
  else process.env.PUBLIC_BASE_URL = baseUrl;
  vi.resetModules();
  return (await import("@/lib/public-api/app-gate")).handlePublicRequest;
}

describe("HSTS on the public API", () => {
  it("is sent on every answer, success or error, when PUBLIC_BASE_URL is https", async () => {
    const handle = await gateWith("https://keyport.example");
    for (const path of ["/api/v1/models", "/api/v1/no-such-route"]) {
      const response = await handle(new Request(`https://keyport.example${path}`));
      expect(response.headers.get("strict-transport-security"), path).toBe("max-age=63072000; includeSubDomains");
    }
  });

  it("is not sent on plain http", async () => {
    const handle = await gateWith("http://localhost:3000");
    const response = await handle(new Request("http://localhost:3000/api/v1/models"));
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("answers a method carried from server.mjs (TRACE) in the gate's order, and ignores the header otherwise", async () => {
    const handle = await gateWith("http://localhost:3000");
    const carried = (path: string, method: string) =>
      handle(new Request(`http://localhost:3000${path}`, { method, headers: { "x-keyport-method": "TRACE" } }));
    const known = await carried("/api/v1/models", "OPTIONS");
    expect(known.status).toBe(405);
    expect(known.headers.get("allow")).toBe("GET, HEAD");
    expect((await known.json()).error.code).toBe("method_not_allowed");
    expect((await carried("/api/v1/nope", "OPTIONS")).status).toBe(404);
    // The header cannot turn a routable method into another: a GET stays a GET (401: no key).
    expect((await carried("/api/v1/models", "GET")).status).toBe(401);
  });
});
