// The route files under app/api/v1* and the registry describe the same 13 routes.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { routeHandlers } from "@/lib/public-api/route-handlers";
import { publicRoutes } from "@/lib/public-api/routes";
import { seedRoutes } from "../helpers/seed-spec";

const appDir = path.resolve(import.meta.dirname, "..", "..", "app");

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

const files = ["api/v1", "api/v1beta"].flatMap((dir) => routeFiles(path.join(appDir, dir)));
const folders = files.map((file) => "/" + path.relative(appDir, path.dirname(file)));

// Known exceptions: one folder serves both model actions (Next cannot match
// text after "]" in a folder name), and the catch-alls answer 404/405.
const MODEL_ACTIONS_FOLDER = "/api/v1beta/models/[model]";
const CATCH_ALLS = ["/api/v1/[[...unknown]]", "/api/v1beta/[[...unknown]]"];

describe("the public API's route files", () => {
  it("are exactly the registry's routes, with the named exceptions", () => {
    const expected = new Set(
      publicRoutes.map((route) => route.path.replace(/\[model\]:(generateContent|streamGenerateContent)$/, "[model]")),
    );
    expect(expected.size).toBe(12);
    expect(new Set(folders.filter((folder) => !CATCH_ALLS.includes(folder)))).toEqual(expected);
    expect(folders.filter((folder) => CATCH_ALLS.includes(folder)).sort()).toEqual(CATCH_ALLS);
    expect(publicRoutes.filter((route) => route.path.startsWith(MODEL_ACTIONS_FOLDER))).toHaveLength(2);
  });

  it("all hand every method to the gate", () => {
    for (const file of files) {
      const source = readFileSync(file, "utf8");
      expect(source, file).toMatch(
        /export const \{ GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS \} = publicApiMethods;/,
      );
      expect(source, file).toMatch(/export const dynamic = "force-dynamic";/);
    }
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
