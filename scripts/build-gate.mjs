#!/usr/bin/env node
// Bundles the public API (lib/public-api/server-entry.ts) into one ES module,
// dist/public-api.mjs, that server.mjs serves outside Next's router (docs/architecture.md:
// "Why the public API does not go through Next"). One script for every caller:
// `npm run build`, `npm run dev` (in watch mode, through server.mjs), the test
// script and the benchmark.
//
// The gate's modules import `server-only`, which resolves only under the
// `react-server` condition: the bundle is built with that condition (so no
// client-only module can slip in), and `server-only` itself becomes an empty
// module. server.mjs is never started with the condition: Next must not be.
// Packages stay external and load from node_modules at run time.
//   node scripts/build-gate.mjs            build once
//   import { watchGate } from "./scripts/build-gate.mjs"   rebuild on change
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
export const GATE_BUNDLE = path.join(root, "dist", "public-api.mjs");

/** `import "server-only"` marks a module as server code; in this bundle, all of it is. */
const serverOnlyIsEmpty = {
  name: "server-only-is-empty",
  /** @param {esbuild.PluginBuild} build */
  setup(build) {
    build.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty" }));
    build.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "", loader: "js" }));
  },
};

/** @type {esbuild.BuildOptions} */
const options = {
  absWorkingDir: root,
  entryPoints: [path.join(root, "lib", "public-api", "server-entry.ts")],
  outfile: GATE_BUNDLE,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  conditions: ["react-server"],
  // Dates without the wrapper Next puts on the global Date (lib/public-api/native-date.ts).
  inject: [path.join(root, "lib", "public-api", "native-date.ts")],
  packages: "external",
  tsconfig: path.join(root, "tsconfig.json"),
  sourcemap: "linked",
  logLevel: "warning",
  plugins: [serverOnlyIsEmpty],
};

/**
 * Builds the bundle (to `outfile`: the tests build their own copy). `variant`: esbuild options
 * for a benchmark's variant (scripts/bench/tracing-hook.mts), its plugins added to this script's.
 * @param {string} [outfile]
 * @param {Pick<esbuild.BuildOptions, "minifySyntax" | "plugins">} [variant]
 */
export async function buildGate(outfile = GATE_BUNDLE, variant = {}) {
  await esbuild.build({ ...options, ...variant, outfile, plugins: [serverOnlyIsEmpty, ...(variant.plugins ?? [])] });
}

/**
 * Development: rebuilds the bundle whenever a file it includes changes and
 * calls `onRebuild` after each successful build (server.mjs then imports the
 * new bundle). Resolves once the first build is written.
 * @param {() => void} onRebuild
 */
export async function watchGate(onRebuild) {
  let first = true;
  /** @type {() => void} */
  let resolveReady = () => {};
  const ready = new Promise((resolve) => (resolveReady = () => resolve(undefined)));
  const context = await esbuild.context({
    ...options,
    plugins: [
      serverOnlyIsEmpty,
      {
        name: "on-rebuild",
        setup(build) {
          build.onEnd((result) => {
            if (result.errors.length > 0) return;
            if (first) {
              first = false;
              resolveReady();
            } else onRebuild();
          });
        },
      },
    ],
  });
  await context.watch();
  await ready;
  return context;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await buildGate();
}
