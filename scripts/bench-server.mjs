#!/usr/bin/env node
// The benchmark's own servers; npm run bench (scripts/bench.mjs) starts them,
// nothing else does.
//   node scripts/bench-server.mjs variants GATED_PORT UNGATED_PORT NO_USAGE_PORT
//     The public API's bundle (dist/public-api.mjs, from `npm run build`)
//     serving three variants built from the same factory as the app's gate,
//     each on its own port, in one process (so they differ in the gate
//     alone, not in what else the process holds, as server.mjs holds Next):
//     - the app's gate with its real stores (keys, rate limits, usage);
//     - the ungated baseline: the same routes, handlers and headers, none of
//       the gate's checks (createUngatedBaseline);
//     - the app's gate with usage recording discarded.
//     Requests pass the same front as in server.mjs (screenRequest, then the
//     bundle's listener, which paces uploads), so the variants differ from
//     the production server in the gate alone. One runtime, as in server.mjs.
//   node scripts/bench-server.mjs flat SMALL_CACHE_PORT FULL_CACHE_PORT
//     The flat-keys rows' gates: the app's, with a key cache of 100 entries
//     (cachedKeyLookup(store, { max: 100 })), and the app's as it is.
//   node scripts/bench-server.mjs ceiling PORT BODY_FILE
//     A plain node:http server answering BODY_FILE's JSON to every request:
//     the machine's ceiling.
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { isPublicApiPath, screenRequest } from "../lib/http/screen-request.mjs";
import { GATE_BUNDLE } from "./build-gate.mjs";

const [mode, ...args] = process.argv.slice(2);
const HOST = "127.0.0.1";

/** server.mjs's handling of a public API request, in front of `listener`. */
function serveLikeProduction(listener, port) {
  const options = { trustProxy: 0, publicBaseUrl: process.env.PUBLIC_BASE_URL };
  createServer((req, res) => {
    const answer = screenRequest(req, options);
    if (answer || !isPublicApiPath(req.url ?? "/")) {
      res.writeHead(answer?.status ?? 404, answer?.headers).end(answer?.body);
      return;
    }
    void listener(req, res);
  }).listen(port, HOST);
}

if (mode === "variants") {
  const [gatedPort, ungatedPort, noUsagePort] = args.map(Number);
  const api = await import(pathToFileURL(GATE_BUNDLE).href);
  const runtime = api.createRuntime();
  api.publishRuntime(runtime);
  // On PostgreSQL, this instance's change listener and lease, as server.mjs starts them: without it the key cache
  // is never trusted and every hit reads the key's version (lib/instances).
  runtime.instance?.start();
  // With METRICS_PORT (the metrics row), the gates count for Prometheus and the listener serves them, as in server.mjs.
  await runtime.startMetrics();
  const services = api.gateServices(runtime);
  serveLikeProduction(api.publicApiListener(runtime, api.createGate(services)), gatedPort);
  serveLikeProduction(api.publicApiListener(runtime, api.createUngatedBaseline()), ungatedPort);
  serveLikeProduction(
    api.publicApiListener(runtime, api.createGate({ ...services, usage: api.DISCARD_USAGE })),
    noUsagePort,
  );
} else if (mode === "flat") {
  // The flat-keys rows: the app's gate, but with a key cache of 100 entries (1,000 keys cycled through it miss),
  // beside the app's gate with its own cache (which then holds every key: they hit). One process, one runtime.
  const [smallPort, fullPort] = args.map(Number);
  const api = await import(pathToFileURL(GATE_BUNDLE).href);
  const runtime = api.createRuntime();
  api.publishRuntime(runtime);
  runtime.instance?.start();
  const services = api.gateServices(runtime);
  const small = api.cachedKeyLookup(runtime.keyStore, { max: 100 });
  serveLikeProduction(api.publicApiListener(runtime, api.createGate({ ...services, keys: small })), smallPort);
  serveLikeProduction(api.publicApiListener(runtime, api.createGate(services)), fullPort);
} else if (mode === "ceiling") {
  const [port, bodyFile] = args;
  const body = readFileSync(bodyFile);
  createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" }).end(body);
  }).listen(Number(port), HOST);
} else {
  console.error(
    "usage: bench-server.mjs variants GATED_PORT UNGATED_PORT NO_USAGE_PORT | flat SMALL_PORT FULL_PORT | ceiling PORT BODY_FILE",
  );
  process.exit(2);
}

process.once("SIGTERM", () => process.exit(0));
