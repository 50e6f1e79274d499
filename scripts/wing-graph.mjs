#!/usr/bin/env node
// `npm run graph`: the import graph between the code's wings (docs/architecture.md),
// counted from the sources: for each wing, how many imports go to each other wing.
// The domain's row must show no import of the public API or the web app (the lint
// rule in eslint.config.mjs refuses one; tests/unit/lint-rules.test.ts proves it).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { DOMAIN_OUTSIDE } from "../eslint.config.mjs";

const root = path.resolve(import.meta.dirname, "..");
const EXTENSIONS = [".ts", ".tsx", ".mjs", ""];

/** The wing a repository file belongs to. */
function wingOf(file) {
  if (file.startsWith("app/")) return "web: pages (app/)";
  if (file.startsWith("components/")) return "web: components/";
  if (file.startsWith("lib/web/") || file.startsWith("lib/docs/")) return "web: lib/web, lib/docs";
  if (
    file.startsWith("lib/public-api/") ||
    file.startsWith("lib/http/") ||
    /^lib\/errors\/(error-response|request-id)/.test(file)
  )
    return "public API";
  if (file.startsWith("lib/runtime/")) return "runtime";
  if (DOMAIN_OUTSIDE.some((pattern) => file.startsWith(pattern.replace(/\*\*$/, ""))))
    return file.startsWith("lib/generated/") ? "generated Prisma clients" : "entries (CLI, start-up)";
  return "domain";
}

function sources(dir) {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const file = `${dir}/${name}`;
    if (name === "generated" || name === "node_modules") return [];
    if (statSync(path.join(root, file)).isDirectory()) return sources(file);
    return /\.(ts|tsx|mjs)$/.test(name) ? [file] : [];
  });
}

function resolve(spec, from) {
  let base;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith(".")) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return null;
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    try {
      if (statSync(path.join(root, candidate)).isFile()) return candidate;
    } catch {
      // not this extension
    }
  }
  return null;
}

const edges = new Map();
for (const file of ["lib", "app", "components"].flatMap(sources)) {
  const text = readFileSync(path.join(root, file), "utf8");
  for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
    const target = resolve(spec, file);
    if (!target) continue;
    const from = wingOf(file);
    const to = wingOf(target);
    if (from === to) continue;
    const key = `${from} -> ${to}`;
    edges.set(key, (edges.get(key) ?? 0) + 1);
  }
}
console.log("imports between wings (from -> to: count)");
for (const [edge, count] of [...edges].sort()) console.log(`  ${edge}: ${count}`);
const wrong = [...edges.keys()].filter((edge) => /^domain -> (public API|web)/.test(edge));
console.log(wrong.length ? `domain -> API or web: ${wrong.join(", ")}` : "domain -> API or web: none");
process.exitCode = wrong.length ? 1 : 0;
