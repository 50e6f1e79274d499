// Keyport's HTTP server: Next's request handler behind a plain Node server.
// It exists because the app needs the socket's peer address (per-IP limits and
// the lockout), which Next does not expose: we write it into a header on every
// request, replacing whatever a client sent under that name. It also answers
// the few requests Next's router would fail on (lib/http/screen-request.mjs).
//   node server.mjs          production (after `next build`)
//   node server.mjs --dev    development, with Turbopack
import { createServer } from "node:http";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import next from "next";
import { screenRequest } from "./lib/http/screen-request.mjs";
import { enableUploadCollections, paceUploadBody } from "./lib/http/upload-flow.mjs";

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const trustProxy = Number(process.env.TRUST_PROXY ?? 0) || 0;
// The same default as lib/env-schema.ts: in development the origin follows PORT.
const publicBaseUrl = process.env.PUBLIC_BASE_URL ?? `http://localhost:${port}`;

// Young-generation collections during uploads (lib/http/upload-flow.mjs).
setFlagsFromString("--expose_gc");
enableUploadCollections(runInNewContext("gc"));

const app = next({ dev, turbopack: dev, hostname: "localhost", port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((req, res) => {
  const answer = screenRequest(req, { trustProxy, publicBaseUrl });
  if (answer) {
    res.writeHead(answer.status, answer.headers);
    res.end(req.method === "HEAD" ? undefined : answer.body);
    return;
  }
  paceUploadBody(req, res);
  handle(req, res);
}).listen(port, () => {
  console.log(`keyport: ${dev ? "development" : "production"} server on http://localhost:${port}`);
});

// On SIGTERM or SIGINT: stop taking connections, let the app write what it
// holds (the usage buffer registers itself in globalThis.keyportBeforeExit),
// then exit; never more than five seconds.
const SHUTDOWN_GRACE_MS = 5_000;
let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  server.close();
  const hooks = globalThis.keyportBeforeExit ?? [];
  const done = Promise.allSettled(hooks.map((hook) => hook()));
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref())]);
  console.log(`keyport: stopped on ${signal}`);
  process.exit(0);
}
process.once("SIGTERM", () => void shutdown("SIGTERM"));
process.once("SIGINT", () => void shutdown("SIGINT"));
