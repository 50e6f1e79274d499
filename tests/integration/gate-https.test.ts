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

  it("answers a method no route has (PROPFIND) in the gate's order: 405 on a known path, 404 on an unknown one", async () => {
    const handle = await gateWith("http://localhost:3000");
    const propfind = (path: string) => handle(new Request(`http://localhost:3000${path}`, { method: "PROPFIND" }));
    const known = await propfind("/api/v1/models");
    expect(known.status).toBe(405);
    expect(known.headers.get("allow")).toBe("GET, HEAD");
    expect((await known.json()).error.code).toBe("method_not_allowed");
    expect((await propfind("/api/v1/nope")).status).toBe(404);
  });
});
