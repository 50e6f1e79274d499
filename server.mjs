// Keyport's HTTP server: Next's request handler behind a plain Node server,
// for one reason: the app needs the socket's peer address (per-IP limits and
// the lockout), which Next does not expose. We write it into a header on every
// request, replacing whatever a client sent under that name.
//   node server.mjs          production (after `next build`)
//   node server.mjs --dev    development, with Turbopack
import { createServer } from "node:http";
import next from "next";

const PEER_IP_HEADER = "x-keyport-peer-ip";
const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);

const app = next({ dev, turbopack: dev, hostname: "localhost", port });
const handle = app.getRequestHandler();
await app.prepare();

createServer((req, res) => {
  req.headers[PEER_IP_HEADER] = req.socket.remoteAddress ?? "unknown";
  handle(req, res);
}).listen(port, () => {
  console.log(`keyport: ${dev ? "development" : "production"} server on http://localhost:${port}`);
});
