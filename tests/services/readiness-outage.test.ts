// Readiness under a running server (issue 36): a production instance
// (node server.mjs) on PostgreSQL through a proxy the test cuts. /readyz turns
// 503 within about a second of the database going away and back to 200 once
// it returns; /healthz, liveness, stays 200 throughout (an outage must not
// make an orchestrator restart every instance). Run by `npm run test:services`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseProxy, type DatabaseProxy } from "../helpers/database-proxy";
import { requireBuild, startInstance, stopInstances, type Instance } from "../helpers/production-server";

let proxy: DatabaseProxy;
let instance: Instance;

beforeAll(async () => {
  requireBuild();
  proxy = await databaseProxy(process.env.DATABASE_URL!);
  instance = await startInstance({ DATABASE_URL: proxy.url, DATABASE_LISTEN_URL: proxy.url });
}, 60_000);

afterAll(async () => {
  stopInstances();
  await proxy?.close();
});

const status = async (path: string) => (await fetch(`${instance.base}${path}`)).status;

/** Asks /readyz every 50 ms until it answers `wanted`; the milliseconds it took. Liveness is checked at each step. */
async function readyzTurns(wanted: number, withinMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    expect(await status("/healthz")).toBe(200);
    if ((await status("/readyz")) === wanted) return Date.now() - started;
    if (Date.now() - started > withinMs) throw new Error(`/readyz did not answer ${wanted} within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.runIf(process.env.DATABASE_URL?.startsWith("postgres"))("/readyz under a running server", () => {
  it("turns 503 within a second when the database goes away, and 200 when it is back; /healthz stays 200", async () => {
    await readyzTurns(200, 10_000);

    proxy.cut();
    const down = await readyzTurns(503, 3_000);
    expect(down).toBeLessThan(1_500);
    const body = (await (await fetch(`${instance.base}/readyz`)).json()) as { checks: Record<string, string> };
    expect(body.checks.database).toBe("unreachable");

    // A database that stops answering without closing its connections (a stalled network): the check's own second.
    proxy.restore();
    await readyzTurns(200, 10_000);
    proxy.hold();
    const hung = await readyzTurns(503, 5_000);
    expect(hung).toBeLessThan(2_500);
    proxy.release();

    const back = await readyzTurns(200, 10_000);
    expect(back).toBeLessThan(10_000);
  }, 60_000);
});
