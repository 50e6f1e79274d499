// The public API on a real HTTP port, in the test process: Node requests are
// turned into web Requests for the gate, and its Responses streamed back, so
// the official client libraries can be pointed at it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { screenRequest } from "@/lib/http/screen-request.mjs";
import { handlePublicRequest } from "@/lib/public-api/gate";

export async function startApiServer(): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    // What server.mjs does first: the socket's address in its header (never a client's), odd methods carried.
    const screened = screenRequest(req, {});
    if (screened) {
      res.writeHead(screened.status, screened.headers);
      return void res.end(screened.body);
    }
    const url = `http://localhost${req.url}`;
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value);
      else if (Array.isArray(value)) headers.set(name, value.join(", "));
    }
    const request = new Request(url, {
      method: req.method,
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
      // @ts-expect-error Node's fetch needs duplex for a streamed request body.
      duplex: "half",
    });
    const response = await handlePublicRequest(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return void res.end();
    const reader = response.body.getReader();
    res.on("close", () => void reader.cancel().catch(() => {}));
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      res.write(value);
    }
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
