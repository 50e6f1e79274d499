// Keyport's HTTP server: a plain Node server in front of two handlers.
// - The public API (/api/v1/**, /api/v1beta/**) goes straight to the gate, in
//   the bundle scripts/build-gate.mjs makes (dist/public-api.mjs), never
//   through Next's router, which costs more than the API itself (docs/architecture.md:
//   "Why the public API does not go through Next").
// - Everything else goes to Next's request handler. Next does not expose the
//   socket's peer address (per-IP limits and the lockout): we write it into a
//   header on every request, replacing whatever a client sent under that name.
// Both first pass lib/http/screen-request.mjs, which sets the peer address
// and answers the few requests Next's router would fail on.
// The process's runtime (database clients, stores, caches, background jobs:
// lib/runtime/create-runtime.ts) is created here, once, from the bundle:
// the gate serves with it, and Next's side finds it published
// (lib/runtime/runtime.ts).
//   node server.mjs          production (after `npm run build`)
//   node server.mjs --dev    development, with Turbopack; the gate's bundle is rebuilt on change
// First: it keeps the process's Date before Next wraps it, for the public API's bundle.
import "./lib/http/native-date.mjs";
import nextEnv from "@next/env";
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import next from "next";
import { isPublicApiPath, screenRequest } from "./lib/http/screen-request.mjs";
import { GATE_BUNDLE, watchGate } from "./scripts/build-gate.mjs";

const dev = process.argv.includes("--dev");
// The .env files, as Next reads them (.env.development.local, where `npm run dev` writes the generated secrets;
// .env.production in production), before the runtime reads the environment: Next itself would read them only
// when it is prepared, after the runtime is made.
nextEnv.loadEnvConfig(process.cwd(), dev);
const port = Number(process.env.PORT ?? 3000);

// Young-generation collections during uploads (lib/http/upload-flow.ts).
setFlagsFromString("--expose_gc");
const collectGarbage = runInNewContext("gc");

/** The public API's request listener, from the bundle; in development, from its latest build. */
let publicApi;
/** The process's runtime: created by the first bundle loaded, and kept across development rebuilds. */
let runtime;
/** The bundle loaded last. */
let bundle;
async function loadPublicApi(version = 0) {
  bundle = await import(`${pathToFileURL(GATE_BUNDLE).href}${version ? `?v=${version}` : ""}`);
  if (!runtime) {
    bundle.checkEnvironmentOrExit();
    runtime = bundle.createRuntime(undefined, { collectGarbage });
    bundle.publishRuntime(runtime);
    // With METRICS_PORT: the metrics and their listener, before the gate is built (it counts for them).
    await runtime.startMetrics();
  }
  publicApi = bundle.publicApiListener(runtime);
}
if (dev) {
  let builds = 0;
  await watchGate(() => {
    void loadPublicApi(++builds).then(() => console.log("keyport: public API rebuilt"));
  });
}
await loadPublicApi();
// This instance's generation worker, pruning and mail job.
runtime.startBackgroundJobs();

// Next adds an 'upgrade' listener to the server that serves its first request (for its development
// socket). With one in place, Node hands every request carrying an Upgrade header to that listener, past
// the screen and the gate: an attack review found API requests held open, unanswered. Next is given a
// stand-in to listen on instead. In production no 'upgrade' listener exists, so Node serves such a
// request as a plain one (the Upgrade header ignored); in development only Next's own socket
// (/_next/...) is passed on.
const upgradeStandIn = { on: () => upgradeStandIn };
const app = next({ dev, turbopack: dev, hostname: "localhost", port, httpServer: upgradeStandIn });
await app.prepare();
// Next's handler, run in the request's scope: a 500 it writes because the database was busy becomes
// a 503 page with Retry-After (lib/http/busy-page.ts).
const handle = bundle.busyAwareListener(runtime.requestScope, app.getRequestHandler(), runtime.env.PUBLIC_BASE_URL);

// TRUST_PROXY and PUBLIC_BASE_URL as the environment schema parsed them (one parser: lib/env-schema.ts).
const screening = { trustProxy: runtime.env.TRUST_PROXY, publicBaseUrl: runtime.env.PUBLIC_BASE_URL };
const IDLE_CONNECTION_TIMEOUT_MS = 65_000;
const server = createServer((req, res) => {
  const answer = screenRequest(req, screening);
  if (answer) {
    res.writeHead(answer.status, answer.headers);
    res.end(req.method === "HEAD" ? undefined : answer.body);
    return;
  }
  if (isPublicApiPath(req.url ?? "/")) {
    void publicApi(req, res);
    return;
  }
  handle(req, res);
});
// Node closes a connection idle for 5 seconds. A client that pools connections (a load balancer, an
// HTTP agent, Playwright's request context) can send on one at the moment it closes and gets a reset
// instead of an answer: CI saw one. Idle connections stay open longer than a load balancer's usual idle
// timeout (60 s), so the balancer, not the instance, is the side that closes them.
server.keepAliveTimeout = IDLE_CONNECTION_TIMEOUT_MS;
if (dev) {
  server.on("upgrade", (req, socket, head) => {
    // As Next's own listener calls it (its development socket).
    if ((req.url ?? "").startsWith("/_next/")) return void app.upgradeHandler(req, socket, head);
    socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
  });
}
// A port taken (or not this machine's) stops the process: an instance serving its background jobs and metrics but
// no requests would look alive to everything but its users.
server.on("error", (error) => {
  console.error(`keyport: cannot listen on port ${port}: ${error.code ?? error.message}`);
  process.exit(1);
});
server.listen(port, () => {
  console.log(`keyport: ${dev ? "development" : "production"} server on http://localhost:${port}`);
});

// On SIGTERM or SIGINT: stop taking connections, let the runtime stop its
// jobs and write what it holds (the usage buffer), then exit; never more than
// five seconds.
const SHUTDOWN_GRACE_MS = 5_000;
let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  server.close();
  const done = runtime.close().catch(() => {});
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref())]);
  console.log(`keyport: stopped on ${signal}`);
  process.exit(0);
}
process.once("SIGTERM", () => void shutdown("SIGTERM"));
process.once("SIGINT", () => void shutdown("SIGINT"));
