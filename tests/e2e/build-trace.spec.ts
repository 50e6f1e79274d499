// What the production build ships beside each server route: its trace
// (.next/server/**/*.nft.json) lists the files the route reads at run time.
// A filesystem path built from process.cwd() and a value the build cannot
// know (lib/files/store.ts filesRoot) made Turbopack trace the whole project
// into every route, the README, docs, tests, public/ and every page's source
// included, with the warning "Dynamic filesystem access causes tracing of the
// whole project". Run after `npm run build`, as the rest of this suite.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

const root = process.cwd();

function traces(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".nft.json"))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

test("the production build traces no file of the project outside lib/ and prisma/ into its server routes", () => {
  const found = traces(path.join(root, ".next", "server"));
  expect(found.length).toBeGreaterThan(20);
  const stray: Record<string, string[]> = {};
  for (const trace of found) {
    const { files } = JSON.parse(readFileSync(trace, "utf8")) as { files: string[] };
    const outside = files
      .map((file) => path.relative(root, path.resolve(path.dirname(trace), file)))
      .filter((file) => !/^(node_modules|\.next|lib|prisma)\//.test(file));
    if (outside.length > 0) stray[path.relative(root, trace)] = outside.slice(0, 5);
  }
  expect(stray).toEqual({});
});
