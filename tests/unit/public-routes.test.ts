import { describe, expect, it } from "vitest";
import { isPublicApiPath } from "@/lib/http/screen-request.mjs";
import { pathParams, pathPattern, publicRoutes, routesForPath, versionOf } from "@/lib/public-api/routes";
import { seedRoutes } from "../helpers/seed-spec";

describe("the public route list", () => {
  it("holds exactly the 13 routes of the seed's table, in its order", () => {
    const seed = seedRoutes();
    expect(seed).toHaveLength(13);
    expect(publicRoutes.map(({ method, path }) => ({ method, path }))).toEqual(seed);
  });

  it("gives every route a unique name and a summary", () => {
    const names = publicRoutes.map((route) => route.name);
    expect(new Set(names).size).toBe(names.length);
    for (const route of publicRoutes) expect(route.summary.length).toBeGreaterThan(5);
  });

  it("puts exactly the two model actions under v1beta", () => {
    expect(publicRoutes.filter((route) => versionOf(route) === "v1beta").map((route) => route.name)).toEqual([
      "generate_content",
      "stream_generate_content",
    ]);
  });
});

// What server.mjs hands to the gate rather than to Next: the function it calls, on request targets as it sees them.
describe("the public API namespace", () => {
  it.each([
    "/api/v1",
    "/api/v1/models",
    "/api/v1/unknown/thing",
    "/api/v1beta",
    "/api/v1beta/models/x:generateContent",
    "/api/v1?x=1",
    "/api/v1beta?alt=sse",
    "/api/v1/models?limit=2",
  ])("%s is public", (path) => expect(isPublicApiPath(path)).toBe(true));

  it.each([
    "/",
    "/docs",
    "/healthz",
    "/api/auth/session",
    "/api/v10/models",
    "/api/v1betas",
    "/api/v1beta2/models",
    "/api/internal/v1/x",
    "/docs/api/v1/models",
    "/x/api/v1",
  ])("%s is internal", (path) => expect(isPublicApiPath(path)).toBe(false));

  it("takes every registry route to the gate", () => {
    for (const route of publicRoutes) expect(isPublicApiPath(route.path), route.path).toBe(true);
  });
});

describe("path shapes", () => {
  it("matches one segment per parameter, and the text after a model id", () => {
    expect(routesForPath("/api/v1/apps/studio").map((r) => r.name)).toEqual(["get_app"]);
    expect(routesForPath("/api/v1/apps/studio/generations/gen_1").map((r) => r.name)).toEqual(["get_app_generation"]);
    expect(routesForPath("/api/v1beta/models/gemini-2.5-flash:streamGenerateContent").map((r) => r.name)).toEqual([
      "stream_generate_content",
    ]);
    expect(routesForPath("/api/v1/apps/a/b")).toEqual([]);
    expect(routesForPath("/api/v1/apps/")).toEqual([]);
  });

  it("matches nothing on a path with a malformed percent escape (404), and decodes a well-formed one", () => {
    expect(routesForPath("/api/v1/generations/%E0%A4%A")).toEqual([]);
    expect(routesForPath("/api/v1/apps/%zz/generations")).toEqual([]);
    expect(routesForPath("/api/v1/generations/gen%5F1").map((r) => r.name)).toEqual(["get_generation"]);
  });

  it("splits a model action at the last colon, so model ids may hold colons, dots and dashes", () => {
    const [route] = routesForPath("/api/v1beta/models/org:model-1.5:streamGenerateContent");
    expect(route?.name).toBe("stream_generate_content");
    expect(pathParams(route!, "/api/v1beta/models/org:model-1.5:streamGenerateContent")).toEqual({
      model: "org:model-1.5",
    });
    expect(
      pathParams(routesForPath("/api/v1/apps/a%20b/generations/g1")[0]!, "/api/v1/apps/a%20b/generations/g1"),
    ).toEqual({
      app: "a b",
      id: "g1",
    });
  });

  it("treats regular-expression characters in paths literally", () => {
    expect(pathPattern("/api/v1/chat/completions").test("/api/v1/chatXcompletions")).toBe(false);
    expect(
      pathPattern("/api/v1beta/models/[model]:generateContent").test("/api/v1beta/models/m:generateContentX"),
    ).toBe(false);
  });
});
