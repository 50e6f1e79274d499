// Reads the route table (part 4) of the API's seed description, kept in the
// repo at docs/spec/public-api-seed.md, so tests can hold the registry to it.
import { readFileSync } from "node:fs";
import path from "node:path";

export interface SeedRoute {
  method: string;
  path: string;
}

export function seedRoutes(): SeedRoute[] {
  const text = readFileSync(path.join(import.meta.dirname, "..", "..", "docs", "spec", "public-api-seed.md"), "utf8");
  const section = text.split("## 4. Endpoints")[1]?.split("## 5.")[0] ?? "";
  return [...section.matchAll(/^\|\s*\d+\s*\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*(\S+)\s*\|$/gm)].map((m) => ({
    method: m[1] ?? "",
    path: m[2] ?? "",
  }));
}
