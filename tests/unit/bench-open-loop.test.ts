// The benchmark's open-loop client reads answers off raw sockets
// (scripts/bench/raw-http.mjs): a mistake there would time the wrong bytes or
// hang a run. These serve it answers as node:http writes them and as a
// server may split them, and check what the client counts.
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { fixedRate } from "../../scripts/bench/open-loop.mjs";
import { getRequestBytes, rawConnection } from "../../scripts/bench/raw-http.mjs";

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

function listen<T extends Server | ReturnType<typeof createNetServer>>(server: T): Promise<number> {
  servers.push(server);
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

/** Sends `count` requests one after another over one connection; the statuses it read. */
function exchange(port: number, count: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const statuses: number[] = [];
    const request = getRequestBytes({ host: "127.0.0.1", port, path: "/x", authorization: "Bearer sk_test" });
    const connection = rawConnection({
      host: "127.0.0.1",
      port,
      request,
      onAnswer(status: number) {
        statuses.push(status);
        if (statuses.length === count) {
          connection.close();
          resolve(statuses);
        } else connection.send();
      },
      onFailure: reject,
    });
    connection.send();
  });
}

describe("the open-loop client's raw connection", () => {
  it("reads answers with Content-Length and chunked answers from node:http, and sends the key", async () => {
    const seen: (string | undefined)[] = [];
    let n = 0;
    const port = await listen(
      createHttpServer((req, res) => {
        seen.push(req.headers.authorization);
        n++;
        // Odd answers chunked (no length known in advance), even ones with a length.
        if (n % 2) res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
        else res.writeHead(404, { "Content-Length": "2" }).end("no");
      }),
    );
    expect(await exchange(port, 4)).toEqual([200, 404, 200, 404]);
    expect(seen).toEqual(Array(4).fill("Bearer sk_test"));
  });

  it("waits for an answer split anywhere, headers and body alike", async () => {
    const answer = "HTTP/1.1 201 Created\r\nContent-Length: 5\r\n\r\nhello";
    const chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
    const port = await listen(
      createNetServer((socket) => {
        let turn = 0;
        socket.on("data", async () => {
          const text = turn++ % 2 ? chunked : answer;
          // One byte at a time, each in its own write.
          for (const byte of text) {
            socket.write(byte);
            await new Promise((resolve) => setImmediate(resolve));
          }
        });
      }),
    );
    expect(await exchange(port, 4)).toEqual([201, 200, 201, 200]);
  });

  it("fails an answer whose end it cannot find rather than guessing", async () => {
    const port = await listen(
      createNetServer((socket) => socket.on("data", () => socket.write("HTTP/1.1 200 OK\r\n\r\nbody"))),
    );
    await expect(exchange(port, 1)).rejects.toThrow(/cannot find/);
  });
});

/** A fixed-rate run against the test server on `port`. */
function runAt(port: number, options: { rate: number; seconds: number; sockets: number; warmUpSeconds: number }) {
  return fixedRate({ url: `http://127.0.0.1:${port}/api/v1/models`, authorization: "Bearer sk_test", ...options });
}

describe("fixedRate", () => {
  it("times only the requests after the warm-up, counts every answer, and counts non-2xx", async () => {
    let requests = 0;
    const port = await listen(
      createHttpServer((_req, res) => {
        requests++;
        res.writeHead(requests % 10 === 0 ? 500 : 200, { "Content-Length": "2" }).end("{}");
      }),
    );
    const run = await runAt(port, { rate: 400, seconds: 0.5, sockets: 4, warmUpSeconds: 0.25 });
    // 100 warm-up requests are sent but not timed; 200 are timed.
    expect(requests).toBe(300);
    expect(run.completed).toBe(200);
    expect(run.latenciesNs).toHaveLength(200);
    expect(run.errors).toBe(0);
    expect(run.non2xx).toBe(20);
    for (const latency of run.latenciesNs) expect(latency).toBeGreaterThan(0);
  });

  it("carries on over the connections left when some close, and counts what they carried", async () => {
    let answers = 0;
    const port = await listen(
      createNetServer((socket) =>
        socket.on("data", () => {
          answers++;
          // The server drops one connection in the middle of the run with a request on it, and another idle.
          if (answers === 30) return void socket.destroy();
          socket.write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
          if (answers === 60) socket.end();
        }),
      ),
    );
    const run = await runAt(port, { rate: 200, seconds: 0.5, sockets: 3, warmUpSeconds: 0 });
    expect(run.errors).toBe(1);
    expect(run.completed).toBe(99);
  });

  it("counts requests as errors when the server is gone, and still ends", async () => {
    const server = createNetServer((socket) => socket.destroy());
    const port = await listen(server);
    const run = await runAt(port, { rate: 200, seconds: 0.2, sockets: 2, warmUpSeconds: 0 });
    expect(run.completed).toBe(0);
    expect(run.errors).toBe(40);
  });
});
