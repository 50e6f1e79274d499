// The metrics listener's HTTP server, in a worker thread of its own
// (lib/metrics/listener.ts starts it). On the request thread, a scrape's
// request and response went through Node's HTTP code with other shapes than
// the gate's (another server, other headers, a larger body): V8 then
// deoptimized that code ("wrong map": the parser's callbacks, end, cork,
// writev), and the gate answered 5 to 10% fewer requests from the first scrapes
// on (docs/benchmark.md, 2026-11-28). Here only this thread's copy of that
// code sees a scrape. What to answer is still decided on the request thread
// (the wall's key check, the path, the metrics themselves): this thread
// parses, writes, and keeps a flood off the request thread.
//
// Plain JavaScript, loaded by path, as lib/usage/sqlite-usage-worker.mjs.
import { randomInt } from "node:crypto";
import { createServer } from "node:http";
import { parentPort, workerData } from "node:worker_threads";

// Requests handed to the request thread: PER_SECOND a second, after a first BURST (a Prometheus scrapes every 15 to
// 60 s; a few of them, an operator's curl and a test's polling fit), and at most MAX_WAITING unanswered there at once.
// A collection takes 3 to 9 ms there, so a flood costs that thread at most about 5%. The rest get 503
// service_unavailable from here. Without the limit, an attack review's 80,000 requests pipelined on four connections
// all went to the request thread: the public port stopped answering and SIGTERM took minutes.
const PER_SECOND = 10;
const BURST = 40;
const MAX_WAITING = 8;

const waiting = new Map();
let nextId = 1;
let tokens = BURST;
let refilledAt = performance.now();

function mayAsk() {
  const now = performance.now();
  tokens = Math.min(BURST, tokens + ((now - refilledAt) * PER_SECOND) / 1000);
  refilledAt = now;
  if (tokens < 1 || waiting.size >= MAX_WAITING) return false;
  tokens -= 1;
  return true;
}

/** "req_" and 24 random base36 characters, as lib/errors/request-id.ts makes them. */
function requestId() {
  let id = "req_";
  for (let i = 0; i < 24; i++) id += "0123456789abcdefghijklmnopqrstuvwxyz"[randomInt(36)];
  return id;
}

/** The 503 the request thread prepared (lib/errors' shape), with this answer's own request id. */
function answerBusy(res) {
  const { status, headers, body, requestId: made } = workerData.busy;
  const id = requestId();
  res.writeHead(
    status,
    headers.map((value) => (value === made ? id : value)),
  );
  res.end(body.replace(made, id));
}

const server = createServer((req, res) => {
  if (!mayAsk()) return answerBusy(res);
  const id = nextId++;
  waiting.set(id, { req, res });
  res.on("close", () => waiting.delete(id));
  parentPort.postMessage({ type: "request", id, method: req.method, url: req.url, rawHeaders: req.rawHeaders });
});

parentPort.on("message", (message) => {
  if (message.type === "close") {
    server.close(() => parentPort.close());
    server.closeAllConnections();
    return;
  }
  const open = waiting.get(message.id);
  if (!open) return;
  waiting.delete(message.id);
  const { req, res } = open;
  res.writeHead(message.status, message.headers);
  res.end(req.method === "HEAD" ? undefined : Buffer.from(message.body));
});

server.once("error", (error) => parentPort.postMessage({ type: "listen_failed", error: String(error.message) }));
server.listen(workerData.port, workerData.host, () => {
  const bound = server.address();
  parentPort.postMessage({
    type: "listening",
    port: typeof bound === "object" && bound ? bound.port : workerData.port,
  });
});
