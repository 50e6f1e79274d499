#!/usr/bin/env node
// npm run bench: builds and starts the production server, and measures from
// this (second) process with autocannon:
//   1. a public GET route through the gate with a valid key (usage recorded)
//   2. the same, through the same gate with nothing recorded (x-keyport-bench:
//      no-usage); 1 and 2 alternate in halves (on, off, off, on)
//   3. the same handler without the gate (KEYPORT_BENCH_UNGATED, local only)
//   4. a plain Node http server answering the same JSON: the machine's ceiling
//   5. the gated route again with 100,000 more keys in the database
//   6. a flood of malformed keys
// Then it stops the server with SIGTERM, waits for it to exit, and reads the
// usage events dropped during the run from its `usage.closed` log line.
// On SQLite, and on PostgreSQL too when DATABASE_URL points at one (a
// throw-away database is created on that server and dropped after).
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function waitFor(url) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

function run(url, headers, setupRequest, duration = DURATION) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration,
        headers,
        ...(setupRequest ? { requests: [{ setupRequest }] } : {}),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/**
 * Usage on and off, each for DURATION in all, as halves in the order on, off,
 * off, on: a machine that speeds up or slows down during the pair (other work
 * on it) then weighs on both alike. Requests per second over both halves;
 * p50 and p99 are the mean of the halves'.
 */
async function pairedRuns(url, onHeaders, offHeaders) {
  const half = DURATION / 2;
  const [on1, off1, off2, on2] = [
    await run(url, onHeaders, undefined, half),
    await run(url, offHeaders, undefined, half),
    await run(url, offHeaders, undefined, half),
    await run(url, onHeaders, undefined, half),
  ];
  const merge = (a, b) => ({
    rps: Math.round((a.requests.total + b.requests.total) / (a.duration + b.duration)),
    p50: (a.latency.p50 + b.latency.p50) / 2,
    p99: (a.latency.p99 + b.latency.p99) / 2,
    non2xx: a.non2xx + b.non2xx,
    errors: a.errors + b.errors,
  });
  return [merge(on1, on2), merge(off1, off2)];
}

/** SIGTERM, then wait for the exit (server.mjs flushes the usage buffer first); SIGKILL after 20 s. */
function stopServer(server) {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => server.kill("SIGKILL"), 20_000);
    server.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    server.kill("SIGTERM");
  });
}

/** The server's last `usage.closed` line: { recorded, written, dropped, pending }, or null if it logged none. */
function usageClosed(stdout) {
  const lines = stdout.split("\n").filter((line) => line.includes('"event":"usage.closed"'));
  return lines.length > 0 ? JSON.parse(lines.at(-1)) : null;
}

const row = (name, r) => ({
  name,
  rps: Math.round(r.requests.average),
  p50: r.latency.p50,
  p99: r.latency.p99,
  non2xx: r.non2xx,
  errors: r.errors,
});

async function benchTarget(label, databaseUrl) {
  const env = { ...process.env, DATABASE_URL: databaseUrl };
  execFileSync(bin("prisma"), ["migrate", "deploy"], { cwd: root, env, stdio: "ignore" });
  const admin = (args, input) =>
    execFileSync(bin("tsx"), ["--conditions=react-server", "scripts/admin.mts", ...args], {
      cwd: root,
      env,
      input,
      encoding: "utf8",
      stdio: ["pipe", "pipe", "ignore"],
    }).trim();
  const email = `bench-${Date.now()}@example.com`;
  admin(["user:create", "--email", email], "a long enough password\n");
  const key = admin(["key:create", "--email", email, "--env", "dev", "--label", "bench"]);

  const port = await freePort();
  // The server's stdout (one JSON line per request, and usage.closed at exit)
  // goes to a file rather than a pipe this process would have to drain while it measures.
  const logFile = path.join(mkdtempSync(path.join(os.tmpdir(), "keyport-bench-log-")), "server.log");
  const logFd = openSync(logFile, "w");
  const server = spawn(process.execPath, [path.join(root, "server.mjs")], {
    cwd: root,
    env: {
      ...env,
      NODE_ENV: "production",
      PORT: String(port),
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      PUBLIC_BASE_URL: `http://localhost:${port}`,
      KEYPORT_BENCH_UNGATED: "1",
      RATE_LIMIT_DEV_PER_MINUTE: "1000000",
      WORKER_DISABLED: "1",
    },
    stdio: ["ignore", logFd, "ignore"],
  });
  closeSync(logFd);
  const url = `http://127.0.0.1:${port}/api/v1/models`;
  const results = [];
  try {
    await waitFor(`http://127.0.0.1:${port}/healthz`);
    const body = JSON.stringify(await (await fetch(url, { headers: { authorization: `Bearer ${key}` } })).json());
    const ceilingPort = await freePort();
    const ceiling = spawn(
      process.execPath,
      [
        "-e",
        `require("http").createServer((q,s)=>{s.writeHead(200,{"content-type":"application/json","cache-control":"no-store"});s.end(${JSON.stringify(body)})}).listen(${ceilingPort},"127.0.0.1")`,
      ],
      { stdio: "ignore" },
    );
    await waitFor(`http://127.0.0.1:${ceilingPort}/`);
    const gatedHeaders = { authorization: `Bearer ${key}` };
    await run(url, gatedHeaders); // warm-up
    const [usageOn, usageOff] = await pairedRuns(url, gatedHeaders, { ...gatedHeaders, "x-keyport-bench": "no-usage" });
    results.push({ name: "gated (valid key)", ...usageOn }, { name: "gated, usage off", ...usageOff });
    results.push(row("ungated (same handler)", await run(url, { "x-keyport-bench": "ungated" })));
    results.push(row("ceiling (plain node http)", await run(`http://127.0.0.1:${ceilingPort}/`, {})));
    ceiling.kill();
    execFileSync(bin("tsx"), ["--conditions=react-server", "scripts/bench-seed-keys.mts", "100000"], {
      cwd: root,
      env,
      stdio: "ignore",
    });
    results.push(row("gated, 100,000 keys", await run(url, gatedHeaders)));
    const malformed = (request) => ({
      ...request,
      headers: { ...request.headers, authorization: `Bearer sk_dev_${randomBytes(18).toString("base64url")}` },
    });
    results.push(row("malformed keys (401)", await run(url, {}, malformed)));
  } finally {
    await stopServer(server);
  }
  const usage = usageClosed(readFileSync(logFile, "utf8"));
  rmSync(path.dirname(logFile), { recursive: true, force: true });
  return { label, results, usage };
}

function report({ label, results, usage }) {
  console.log(
    `\n${label}: ${DURATION}s per run, ${CONNECTIONS} connections, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"})`,
  );
  console.table(results);
  const [gated, usageOff, ungated, ceiling, many, malformed] = results;
  console.log(`usage on/off throughput: ${(gated.rps / usageOff.rps).toFixed(2)}`);
  console.log(
    usage
      ? `usage events dropped during the run: ${usage.dropped} (recorded ${usage.recorded}, written ${usage.written}, pending ${usage.pending})`
      : "usage events dropped during the run: unknown (the server logged no usage.closed line)",
  );
  console.log(`gated/ungated throughput: ${(gated.rps / ungated.rps).toFixed(2)}`);
  console.log(`gated/ceiling throughput: ${(gated.rps / ceiling.rps).toFixed(2)}`);
  console.log(
    `p99 added by the gate: ${(gated.p99 - ungated.p99).toFixed(1)} ms (p50 ${(gated.p50 - ungated.p50).toFixed(1)} ms)`,
  );
  console.log(`100,000 keys / 1 key throughput: ${(many.rps / gated.rps).toFixed(2)}`);
  console.log(`malformed / valid throughput: ${(malformed.rps / gated.rps).toFixed(2)}`);
}

console.log("Building the production server…");
execFileSync(bin("next"), ["build"], { cwd: root, stdio: "ignore" });

const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-bench-"));
try {
  report(await benchTarget("SQLite", `file:${path.join(dir, "bench.db")}`));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const serverUrl = process.env.DATABASE_URL;
if (serverUrl && /^postgres(ql)?:\/\//.test(serverUrl)) {
  const name = `keyport_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    report(await benchTarget("PostgreSQL", url.toString()));
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}
