// server.mjs runs Next's handler through busyAwareListener: a 5xx written for a
// request whose query found the database busy reaches the client as 503 with
// Retry-After and a "try again" page; any other answer passes as Next wrote it.
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { busyAwareListener } from "@/lib/http/busy-page";
import { createRequestScope } from "@/lib/http/request-scope";

type Handler = (req: IncomingMessage, res: ServerResponse, markBusy: () => void) => void | Promise<void>;

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

/** Serves `handler` (standing in for Next) as server.mjs does, and sends it one request. */
async function answerOf(handler: Handler, method = "GET") {
  const scope = createRequestScope();
  // As the ORM client does on a busy query: it marks whatever request it runs in.
  const next = (req: IncomingMessage, res: ServerResponse) => handler(req, res, () => scope.markDatabaseBusy());
  const server = createServer(busyAwareListener(scope, next, "https://keyport.example"));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise<{ status: number; headers: IncomingMessage["headers"]; body: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path: "/dashboard" }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const later = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("busyAwareListener", () => {
  it("answers a 500 written after a busy query with 503, Retry-After and the busy page", async () => {
    const answer = await answerOf(async (_req, res, markBusy) => {
      await later();
      markBusy();
      await later();
      res.statusCode = 500;
      res.setHeader("Content-Type", "text/x-component");
      res.write('0:{"a":"$@1"}\n');
      res.end('1:E{"digest":"123"}\n');
    });
    expect(answer.status).toBe(503);
    expect(answer.headers["retry-after"]).toBe("5");
    expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(answer.headers["strict-transport-security"]).toMatch(/^max-age=/);
    expect(answer.body).toContain("<h1>Keyport is busy</h1>");
    expect(answer.body).toContain("try again in a few seconds");
    expect(answer.body).not.toContain("digest");
  });

  it("does the same when Next writes its head itself, and sends no body to a HEAD", async () => {
    const handler: Handler = (_req, res, markBusy) => {
      markBusy();
      res.writeHead(500, { "Content-Type": "text/plain" });
      res.end("Internal Server Error");
    };
    const answer = await answerOf(handler);
    expect(answer.status).toBe(503);
    expect(answer.body).toContain("Keyport is busy");
    const head = await answerOf(handler, "HEAD");
    expect(head.status).toBe(503);
    expect(head.body).toBe("");
  });

  it("leaves a 500 that had nothing to do with the database as it was", async () => {
    const answer = await answerOf((_req, res) => {
      res.statusCode = 500;
      res.end("Internal Server Error");
    });
    expect(answer.status).toBe(500);
    expect(answer.headers["retry-after"]).toBeUndefined();
    expect(answer.body).toBe("Internal Server Error");
  });

  it("leaves a page that rendered despite a busy query as it was", async () => {
    const answer = await answerOf((_req, res, markBusy) => {
      markBusy();
      res.setHeader("Content-Type", "text/html");
      res.end("<p>the dashboard</p>");
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe("<p>the dashboard</p>");
  });

  it("keeps each request's mark to itself", async () => {
    const scope = createRequestScope();
    scope.markDatabaseBusy(); // outside any request: no effect, and no error
    const one = { databaseBusy: false };
    const two = { databaseBusy: false };
    await Promise.all([
      scope.run(one, async () => {
        await later();
        scope.markDatabaseBusy();
      }),
      scope.run(two, () => later()),
    ]);
    expect(one.databaseBusy).toBe(true);
    expect(two.databaseBusy).toBe(false);
  });
});
