// The benchmark's open-loop client reads answers off raw sockets
// (scripts/bench/raw-http.mjs): a mistake there would time the wrong bytes or
// hang a run. These serve it answers as node:http writes them and as a
// server may split them, and check what the client counts.
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { inPairs } from "../../scripts/bench/load.mjs";
import { fixedRate, pairedDifference, summarize } from "../../scripts/bench/open-loop.mjs";
import { pausedWhile } from "../../scripts/bench/processes.mjs";
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
          // A request that reached a connection this server has already ended is lost, as on a real server.
          if (socket.writableEnded) return;
          answers++;
          // The server drops one connection in the middle of the run with a request on it, and ends another
          // after an answer.
          if (answers === 30) return void socket.destroy();
          socket.write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
          if (answers === 60) socket.end();
        }),
      ),
    );
    const run = await runAt(port, { rate: 200, seconds: 0.5, sockets: 3, warmUpSeconds: 0 });
    // The dropped request is an error. A client running behind (a busy machine) may also have sent the next
    // request on the ended connection before it saw the end: then that one is an error too. Every request is
    // counted once, and the run carried on over the connection left.
    expect(run.errors).toBeGreaterThanOrEqual(1);
    expect(run.errors).toBeLessThanOrEqual(2);
    expect(run.completed + run.errors).toBe(100);
  });

  it("counts requests as errors when the server is gone, and still ends", async () => {
    const server = createNetServer((socket) => socket.destroy());
    const port = await listen(server);
    const run = await runAt(port, { rate: 200, seconds: 0.2, sockets: 2, warmUpSeconds: 0 });
    expect(run.completed).toBe(0);
    expect(run.errors).toBe(40);
  });
});

describe("pairedDifference", () => {
  const run = (...latenciesUs: number[]) => ({ latenciesNs: Float64Array.from(latenciesUs, (us) => us * 1000) });
  // 100 requests each: the p99 is the 99th smallest.
  const hundred = (base: number, tail: number) => run(...Array.from({ length: 99 }, () => base), tail);

  it("is the median over the pairs of side a's quantile minus side b's", () => {
    const a = [hundred(100, 900), hundred(100, 700), hundred(100, 800)];
    const b = [hundred(100, 500), hundred(100, 600), hundred(100, 600)];
    // p99 = the 99th of 100 sorted latencies: the base, not the single tail.
    expect(pairedDifference(a, b, 0.99)).toEqual({ medianUs: 0, perPairUs: [0, 0, 0] });
    const slowA = [run(...Array(98).fill(100), 900, 900), run(...Array(98).fill(100), 700, 700)];
    const slowB = [run(...Array(98).fill(100), 500, 500), run(...Array(98).fill(100), 600, 600)];
    expect(pairedDifference(slowA, slowB, 0.99)).toEqual({ medianUs: 250, perPairUs: [400, 100] });
  });

  it("is not moved by one pair that a burst from elsewhere hit, where the pooled p99 is", () => {
    const tail = (us: number) => run(...Array(97).fill(100), us, us, us);
    // In the third pair a burst held up a tenth of a's requests for 60 ms.
    const burst = run(...Array(90).fill(100), ...Array(10).fill(60_000));
    const a = [tail(1200), tail(1100), burst, tail(1300), tail(1250)];
    const b = [tail(1000), tail(1000), tail(1000), tail(1000), tail(1000)];
    const { medianUs, perPairUs } = pairedDifference(a, b, 0.99);
    expect(perPairUs).toEqual([200, 100, 59_000, 300, 250]);
    expect(medianUs).toBe(250);
    // All of a's requests together: the burst's pair decides the p99.
    const pooled = summarize(a).p99Us - summarize(b).p99Us;
    expect(pooled).toBeGreaterThan(50_000);
  });

  it("refuses runs that do not come in pairs", () => {
    expect(() => pairedDifference([run(1)], [], 0.99)).toThrow(/pairs/);
    expect(() => pairedDifference([], [], 0.99)).toThrow(/pairs/);
  });
});

describe("inPairs", () => {
  it("runs a beside b, swapping the order from pair to pair, and keeps the pairs aligned", async () => {
    const order: string[] = [];
    const runs = await inPairs(
      async (seconds: number) => (order.push(`a${seconds}`), `a${order.length}`),
      async (seconds: number) => (order.push(`b${seconds}`), `b${order.length}`),
      3,
      2,
    );
    expect(order).toEqual(["a2", "b2", "b2", "a2", "a2", "b2"]);
    expect(runs).toEqual({ a: ["a1", "a4", "a5"], b: ["b2", "b3", "b6"] });
  });
});

describe("pausedWhile", () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** Waits (up to 10 s, for a loaded machine) until `ready` holds. */
  async function until(ready: () => boolean) {
    for (let waited = 0; !ready() && waited < 10_000; waited += 20) await sleep(20);
    expect(ready()).toBe(true);
  }

  it("stops the idle processes while it measures and lets them go on after, even when the measure throws", async () => {
    const child = spawn(process.execPath, ["-e", "setInterval(() => process.stdout.write('.'), 5)"]);
    let ticks = 0;
    child.stdout.on("data", (chunk: Buffer) => (ticks += chunk.length));
    try {
      await until(() => ticks > 0);
      await expect(
        pausedWhile([child], async () => {
          // What it wrote before it was stopped may still be on its way.
          await sleep(200);
          const before = ticks;
          await sleep(300);
          expect(ticks).toBe(before);
          throw new Error("the measure failed");
        }),
      ).rejects.toThrow("the measure failed");
      const after = ticks;
      await until(() => ticks > after);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
