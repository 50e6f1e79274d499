// The public API on a real HTTP port, in the test process, through the same
// Node adapter as server.mjs (lib/http/node-listener.ts), so the official
// client libraries can be pointed at it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { screenRequest } from "@/lib/http/screen-request.mjs";
import { publicApiListener } from "@/lib/public-api/server-entry";
import { runtime } from "@/lib/runtime/runtime";

export async function startApiServer(): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const listener = publicApiListener(runtime());
  const server: Server = createServer((req, res) => {
    // What server.mjs does first: the peer address set, malformed targets answered.
    const screened = screenRequest(req, {});
    if (screened) {
      res.writeHead(screened.status, screened.headers);
      return void res.end(screened.body);
    }
    void listener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
