// The revocation row of npm run bench (PostgreSQL targets; docs/benchmark.md):
// the production server (instance A) and a second one on the same database
// (instance B), both at half load (open loop, the bench key, for the whole
// row), while REVOCATIONS keys are revoked one after the other through the
// revoker (scripts/bench/revoker.mts: the dashboard's revoke and fence, in an
// instance of its own). Before each, B has answered the key from its cache;
// during each, a prober sends that key to B back to back and keeps on for
// PROBE_AFTER_MS after the revoker's answer arrived. It reports the revoke's
// latency (p50, p99: from the start of the revoke to the fence's answer, timed
// in the revoker) and every request the prober sent after it had the answer
// that was accepted: the invariant says none ever is.
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { fixedRate, summarize } from "./open-loop.mjs";
import { freePort, startLogged, stop, waitForHttp } from "./processes.mjs";

const REVOCATIONS = Number(process.env.BENCH_REVOCATIONS ?? 200);
const PROBE_AFTER_MS = 20;

/** The revoker: one command a line in, one JSON line out. */
function startRevoker(root, env) {
  const child = spawn(
    path.join(root, "node_modules", ".bin", "tsx"),
    ["--conditions=react-server", "scripts/bench/revoker.mts"],
    { cwd: root, env, stdio: ["pipe", "pipe", "ignore"] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    async ask(command) {
      child.stdin.write(`${command}\n`);
      const { value, done } = await lines.next();
      if (done) throw new Error("the revoker exited");
      const answer = JSON.parse(value);
      if (answer.error) throw new Error(answer.error);
      return answer;
    },
  };
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

/** A second production server (instance B) on the same database as the first: { process, base }. */
export async function startSecondInstance({ root, env, logFile, running }) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = startLogged(process.execPath, ["server.mjs"], {
    cwd: root,
    env: { ...env, PORT: String(port), PUBLIC_BASE_URL: base },
    logFile,
  });
  running.push(child);
  await waitForHttp(`${base}/healthz`, child);
  return { process: child, base };
}

/** `a`, `b`: the two instances' base URLs; `env`: the servers' environment; `rate`: each instance's half load. */
export async function revocationRow({ root, env, a, b: bBase, authorization, rate }) {
  const revoker = startRevoker(root, env);
  try {
    const keys = await revoker.ask(`create ${REVOCATIONS}`);
    const models = (secret) =>
      fetch(`${bBase}/api/v1/models`, { headers: { authorization: `Bearer ${secret}` } }).then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      });

    // Half load on both instances for as long as the revocations are expected to take; whatever runs past it
    // runs without that load, and the row says how many revocations had it.
    const loadSeconds = Math.max(10, Math.round(REVOCATIONS * 0.08));
    const loadStarted = performance.now();
    const loads = [a, bBase].map((base) =>
      fixedRate({ url: `${base}/api/v1/models`, authorization, rate, seconds: loadSeconds }),
    );
    const latencies = [];
    const fences = [];
    let underLoad = 0;
    let sentAfter = 0;
    let acceptedAfter = 0;
    let fewestConfirmed = Infinity;
    let instances = 0;
    for (const key of keys) {
      for (let i = 0; i < 2; i++) if ((await models(key.secret)) !== 200) throw new Error("B refused a live key");
      let answeredAt = Infinity;
      let probing = true;
      const prober = (async () => {
        while (probing) {
          const sentAt = performance.now();
          const status = await models(key.secret);
          if (sentAt > answeredAt) {
            sentAfter++;
            if (status === 200) acceptedAfter++;
          }
          if (performance.now() > answeredAt + PROBE_AFTER_MS) probing = false;
        }
      })();
      const answer = await revoker.ask(`revoke ${key.id}`);
      answeredAt = performance.now();
      await prober;
      latencies.push(answer.ms);
      fences.push(answer.fenceMs);
      fewestConfirmed = Math.min(fewestConfirmed, answer.confirmed);
      instances = answer.total;
      if (answeredAt - loadStarted < loadSeconds * 1000) underLoad++;
    }
    const load = summarize(await Promise.all(loads));
    latencies.sort((x, y) => x - y);
    fences.sort((x, y) => x - y);
    return {
      revocations: keys.length,
      underLoad,
      rate,
      p50Ms: quantile(latencies, 0.5),
      p99Ms: quantile(latencies, 0.99),
      maxMs: latencies.at(-1),
      fenceP50Ms: quantile(fences, 0.5),
      fenceP99Ms: quantile(fences, 0.99),
      sentAfter,
      acceptedAfter,
      fewestConfirmed,
      instances,
      load,
    };
  } finally {
    revoker.child.stdin.end();
    await stop(revoker.child);
  }
}
