// Whether the gate is built with its tracing hook (lib/public-api/gate-tracing.ts):
// always, here. scripts/bench/tracing-hook.mts builds a second gate with this
// line set to false and minified, which drops every line the constant guards:
// the gate without the hook, to measure what the hook costs while tracing is
// off. A module of its own with no imports, because esbuild inlines a constant
// into the modules that import it only from a module like that (with
// `import "server-only"` beside it, it did not).
export const TRACING_HOOK = true;
