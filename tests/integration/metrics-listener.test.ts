// The metrics listener's own thread (lib/metrics/metrics-listener-worker.mjs):
// a port already taken is refused and said so, and closing the listener ends
// its thread, so a process stopping does not wait on it.
import { once } from "node:events";
import { connect, createServer, Server, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startMetricsListener } from "@/lib/metrics/listener";
import { loadMetrics, NO_SOURCES } from "@/lib/metrics/registry";

const taken = createServer();
afterEach(() => vi.restoreAllMocks());

describe("the metrics listener", () => {
  it("refuses a port already taken, and logs it", async () => {
    taken.listen(0, "127.0.0.1");
    await once(taken, "listening");
    const { port } = taken.address() as AddressInfo;
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const { registry } = await loadMetrics(NO_SOURCES);
    const listener = startMetricsListener({ registry, host: "127.0.0.1", port, baseUrl: "http://localhost:3000" });
    await expect(listener.address).rejects.toThrow(/EADDRINUSE/);
    expect(logged.mock.calls.flat().join("\n")).toMatch(/"event":"metrics.listen_failed".*EADDRINUSE/);
    await listener.close();
    await new Promise((resolve) => taken.close(resolve));
  });

  it("serves from its own thread until closed, then its port is free again", async () => {
    const { registry } = await loadMetrics(NO_SOURCES);
    // No server of this thread listens for it: its requests never pass through this thread's HTTP code (the worker
    // says why).
    const listen = vi.spyOn(Server.prototype, "listen");
    const listener = startMetricsListener({ registry, host: "127.0.0.1", port: 0, baseUrl: "http://localhost:3000" });
    const { port } = await listener.address;
    expect(listen).not.toHaveBeenCalled();
    // The control: a server of this thread is seen.
    const here = createServer().listen(0, "127.0.0.1");
    await once(here, "listening");
    expect(listen).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => here.close(resolve));
    const scraped = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain("nodejs_heap_size_used_bytes");
    const head = await fetch(`http://127.0.0.1:${port}/metrics`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    await listener.close();
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
    // The port is free: another server can take it.
    const again = createServer().listen(port, "127.0.0.1");
    await once(again, "listening");
    await new Promise((resolve) => again.close(resolve));
  });

  it("keeps a flood off the request thread: past its first 40 and 10 a second the thread answers 503 itself, and close() ends it at once", async () => {
    const { registry } = await loadMetrics(NO_SOURCES);
    const collect = vi.spyOn(registry, "metrics");
    const listener = startMetricsListener({ registry, host: "127.0.0.1", port: 0, baseUrl: "http://localhost:3000" });
    const { port } = await listener.address;
    // 2,000 requests pipelined on one connection, in one write, as the attack review sent them.
    const socket = connect(port, "127.0.0.1");
    await once(socket, "connect");
    socket.write("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".repeat(2_000));
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    await vi.waitFor(() => expect(received.match(/^HTTP\/1\.1 \d{3}/gm)?.length).toBe(2_000), { timeout: 20_000 });
    socket.destroy();
    const statuses = received.match(/^HTTP\/1\.1 \d{3}/gm)!.map((line) => Number(line.slice(9)));
    const served = statuses.filter((status) => status === 200).length;
    // Those handed to the request thread: at least the 8 it may hold at once; at most the first 40 and about 10 a second
    // more while the rest came in.
    expect(served).toBeGreaterThanOrEqual(8);
    expect(served).toBeLessThan(100);
    expect(statuses.filter((status) => status === 503).length).toBe(2_000 - served);
    // Each served scrape collected at most once (concurrent ones share a collection).
    expect(collect.mock.calls.length).toBeLessThanOrEqual(served);
    // The 503 in the errors' shape, with a request id of its own, and Retry-After.
    expect(received).toMatch(/"code":"service_unavailable"/);
    expect(received).toMatch(/Retry-After: 1/);
    const ids = new Set(received.match(/"request_id":"req_[0-9a-z]{24}"/g));
    expect(ids.size).toBe(2_000 - served);

    // A flood still coming in does not hold close() up.
    const flood = connect(port, "127.0.0.1");
    await once(flood, "connect");
    flood.on("error", () => {});
    flood.write("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".repeat(5_000));
    const closing = performance.now();
    await listener.close();
    expect(performance.now() - closing).toBeLessThan(2_000);
    flood.destroy();
  });
});
