// The public API is the registry's 13 routes, answered by the gate alone:
// no Next route file serves a path under its prefix.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { routeHandlers } from "@/lib/public-api/route-handlers";
import { publicRoutes } from "@/lib/public-api/routes";
import { seedRoutes } from "../helpers/seed-spec";

const appDir = path.resolve(import.meta.dirname, "..", "..", "app");

/** Every folder under app/, as the URL path Next would serve it at (route groups dropped). */
function servedPaths(dir: string, at = ""): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (!statSync(full).isDirectory()) return [];
    const segment = /^\(.*\)$/.test(name) ? "" : `/${name}`;
    return [`${at}${segment}`, ...servedPaths(full, `${at}${segment}`)];
  });
}

describe("the public API's routes", () => {
  it("have no Next route file or page: server.mjs hands their paths to the gate", () => {
    const served = servedPaths(appDir);
    // A control: the walk sees the app's own folders, internal API included.
    expect(served).toContain("/api/auth");
    expect(served).toContain("/dashboard");
    expect(served.filter((folder) => /^\/api\/v1(beta)?(\/|$)/.test(folder))).toEqual([]);
    expect(existsSync(path.join(appDir, "api", "v1"))).toBe(false);
  });

  it("match the seed's table, and every route has a handler slot", () => {
    expect(publicRoutes.map(({ method, path }) => ({ method, path }))).toEqual(seedRoutes());
    expect(Object.keys(routeHandlers).sort()).toEqual(publicRoutes.map((route) => route.name).sort());
  });

  it("declare a body for every POST and a query for every list", () => {
    for (const route of publicRoutes) {
      if (route.method === "POST") expect("body" in route && route.body, route.name).toBeTruthy();
      if (route.name.startsWith("list_")) expect("query" in route && route.query, route.name).toBeTruthy();
    }
  });
});

describe("response schemas", () => {
  it("strip anything a handler returns that the route does not declare", () => {
    const route = publicRoutes.find((r) => r.name === "get_app")!;
    const parsed = route.response.parse({
      id: "a",
      object: "app",
      name: "A",
      description: "d",
      model: "m",
      created: 1,
      internal_note: "must not leave the server",
    });
    expect(parsed).not.toHaveProperty("internal_note");
  });
});
