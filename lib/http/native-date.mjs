// Keeps the process's own Date before Next replaces it, for the public API's
// bundle (lib/public-api/native-date.ts). server.mjs imports this first.
//
// Next wraps the global Date in the server's process
// (next/dist/server/node-environment-extensions/date.js): every `new Date()`
// and `Date.now()` then asks two AsyncLocalStorages whether a prerender is
// reading the clock, and every date is built through Reflect.construct with
// the wrapper as new.target. The gate never runs inside a render, and through
// the wrapper the production server answered 20 to 30% fewer requests a
// second (docs/architecture.md: "The gate's hot path").
globalThis.keyportNativeDate ??= Date;
