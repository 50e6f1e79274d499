#!/usr/bin/env node
// npm run bench: builds the app once (`npm run build`), then on each target
// (SQLite; PostgreSQL and PostgreSQL + Redis when DATABASE_URL names a
// PostgreSQL server) starts, on a throw-away database:
//   - the production server, node server.mjs (the new path: gated, the app's
//     real stores, usage recorded);
//   - scripts/bench-server.mjs: the same bundle's gate (the app's stores),
//     its ungated baseline, and its gate with usage recording off, in one
//     process without Next (so pairs 1 and 2 differ in the gate alone);
//   - the ceiling, a plain node:http server answering the same JSON;
// and measures GET /api/v1/models from this process (docs/benchmark.md):
//   pair 1  gated usage on / usage off, alternating halves (on, off, off, on)
//   pair 2  gated / ungated, alternating halves
//   the production server (server.mjs, with Next in the process); the
//   ceiling (the old path through Next's router, gone from the product, is
//   in the history of docs/benchmark.md)
//   a fixed rate at half the gated throughput, gated beside ungated in 8
//     pairs of short runs, with latency in microseconds
//     (scripts/bench/open-loop.mjs), the other servers stopped meanwhile
//   flat keys: 1,000 keys cycled through a gate with a 100-entry cache
//     (misses) and through the app's gate (hits), in a table of 1,000 keys,
//     then of 1,000,000 (scripts/bench-server.mjs flat)
//   on PostgreSQL: two production instances on one database behind the load
//     client against two ceilings (scripts/bench/two-instances.mjs); the
//     revocation row, the same two instances at half load
//     while 200 keys are revoked, each first cached by the second instance,
//     which a prober keeps sending it (scripts/bench/revocation.mjs)
//   a flood of malformed keys
//   in-process, the tracing hook with tracing off against the gate built without it
//     (scripts/bench/tracing-hook.mts)
//   on SQLite, the gated variant with metrics on against off, in 5 pairs beside
//     an A/A pair (scripts/bench/metrics-pair.mjs)
//   on SQLite, this tree's gated variant against another commit's (BENCH_COMPARE,
//     default HEAD^, built in a git worktree) in 5 pairs, beside an A/A pair
//     of two copies of this tree's (scripts/bench/compare.mjs)
// Then it stops the production server with SIGTERM and reads the usage events
// dropped from its `usage.closed` log line. BENCH_SECONDS, BENCH_CONNECTIONS,
// BENCH_THREADS (wrk's), BENCH_FIXED_PAIRS and BENCH_REVOCATIONS tune it;
// BENCH_TARGETS picks targets by label (e.g. "PostgreSQL,PostgreSQL + Redis").
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildCommit, compareGated, comparedCommit } from "./bench/compare.mjs";
import { metricsPair } from "./bench/metrics-pair.mjs";
import { benchTargets, prepareDatabase, seedKeys } from "./bench/databases.mjs";
import { inPairs, LOAD_TOOL, pairedSaturation, saturate } from "./bench/load.mjs";
import { fixedRate, pairedDifference, summarize } from "./bench/open-loop.mjs";
import { freePort, pausedWhile, pinApart, startLogged, stop, usageClosed, waitForHttp } from "./bench/processes.mjs";
import { report, reportSteps } from "./bench/report.mjs";
import { revocationRow, startSecondInstance } from "./bench/revocation.mjs";
import { twoInstanceRow } from "./bench/two-instances.mjs";

const root = path.resolve(import.meta.dirname, "..");
const logOf = (dir, name) => path.join(dir, `${name}.log`);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARM_UP_SECONDS = 2;
const KEYS_IN_DATABASE = 1_000_000;
/** The flat-keys rows' keys: cycled through a 100-entry cache, they miss; through the app's, they hit. */
const FLAT_KEYS = 1_000;
const MALFORMED_KEYS = 10_000;
/** Pairs of fixed-rate runs, gated beside ungated, each run a quarter of BENCH_SECONDS. */
const FIXED_PAIRS = Number(process.env.BENCH_FIXED_PAIRS ?? 8);

const progress = (label, text) => console.log(`${label}: ${text}…`);

/** The servers of one target, each on its own port, logging to files in `dir`; each is added to `running` as it starts. */
async function startServers(dir, env, running) {
  const ports = {
    app: await freePort(),
    gated: await freePort(),
    ungated: await freePort(),
    noUsage: await freePort(),
  };
  env = { ...env, PUBLIC_BASE_URL: `http://localhost:${ports.app}` };
  const start = (name, command, args, extraEnv = {}) => {
    const child = startLogged(command, args, { cwd: root, env: { ...env, ...extraEnv }, logFile: logOf(dir, name) });
    running.push(child);
    return child;
  };
  const app = start("app", process.execPath, ["server.mjs"], { PORT: String(ports.app) });
  const variantArgs = [
    "scripts/bench-server.mjs",
    "variants",
    ...[ports.gated, ports.ungated, ports.noUsage].map(String),
  ];
  const variants = start("variants", process.execPath, variantArgs);
  const url = (port) => `http://127.0.0.1:${port}/api/v1/models`;
  const urls = {
    app: url(ports.app),
    gated: url(ports.gated),
    ungated: url(ports.ungated),
    noUsage: url(ports.noUsage),
  };
  await Promise.all([
    waitForHttp(`http://127.0.0.1:${ports.app}/healthz`, app),
    waitForHttp(urls.gated, variants),
    waitForHttp(urls.ungated, variants),
    waitForHttp(urls.noUsage, variants),
  ]);
  return { app, variants, urls };
}

/** A plain node:http server answering the body the gate answers (the ceiling); its URL. */
async function startCeiling(dir, gated, running) {
  const response = await fetch(gated.url, { headers: { authorization: gated.authorization } });
  if (response.status !== 200) throw new Error(`GET /api/v1/models with the bench key answered ${response.status}`);
  const bodyFile = path.join(dir, "models.json");
  writeFileSync(bodyFile, await response.text());
  const port = await freePort();
  const args = ["scripts/bench-server.mjs", "ceiling", String(port), bodyFile];
  const ceiling = startLogged(process.execPath, args, { cwd: root, logFile: logOf(dir, "ceiling") });
  running.push(ceiling);
  const url = `http://127.0.0.1:${port}/api/v1/models`;
  await waitForHttp(url, ceiling);
  return { process: ceiling, url };
}

/**
 * Gated and ungated at half the gated saturation throughput, in FIXED_PAIRS
 * pairs of short runs (docs/benchmark.md, "Fixed rate"); then the ceiling at the same rate:
 * the floor of this client and machine. The servers not measured here are
 * stopped meanwhile.
 */
async function fixedRateRows(gated, ungated, ceiling, saturationRps, { measured, idle }) {
  const rate = Math.max(1, Math.round(saturationRps / 2));
  const at = (target) => (seconds) => fixedRate({ ...target, rate, seconds });
  const runSeconds = Math.max(1, Math.round(SECONDS / 4));
  return pausedWhile(idle, async () => {
    const pinning = pinApart(measured);
    try {
      await at(ungated)(1); // the client's own warm-up
      const runs = await inPairs(at(gated), at(ungated), FIXED_PAIRS, runSeconds);
      const floor = await at(ceiling)(Math.max(1, Math.round(SECONDS / 2)));
      return {
        rate,
        pinned: pinning.pinned,
        pairs: FIXED_PAIRS,
        runSeconds,
        gated: summarize(runs.a),
        ungated: summarize(runs.b),
        ceiling: summarize([floor]),
        p50Added: pairedDifference(runs.a, runs.b, 0.5),
        p99Added: pairedDifference(runs.a, runs.b, 0.99),
      };
    } finally {
      pinning.undo();
    }
  });
}

/**
 * The flat-keys rows: the same 1,000 keys cycled through a gate with a 100-entry cache (misses) and through the
 * app's gate, whose cache holds them all (hits), first in a table of about 1,000 keys, then after 999,000 more were
 * added (the 1,000 spread among them: every index is ordered by a random digest). Each pair in alternating halves,
 * after a warm-up pass; the gates run in one process of their own (scripts/bench-server.mjs flat).
 */
async function flatKeyRows(dir, seedEnv, env, running) {
  const secretsFile = path.join(dir, "flat-keys.txt");
  const started = performance.now();
  seedKeys(seedEnv, { total: FLAT_KEYS, real: FLAT_KEYS, secretsFile });
  const ports = { small: await freePort(), full: await freePort() };
  const flat = startLogged(
    process.execPath,
    ["scripts/bench-server.mjs", "flat", String(ports.small), String(ports.full)],
    {
      cwd: root,
      env,
      logFile: logOf(dir, "flat"),
    },
  );
  running.push(flat);
  const target = (port) => ({ url: `http://127.0.0.1:${port}/api/v1/models`, keys: { file: secretsFile, offset: 0 } });
  const small = target(ports.small);
  const full = target(ports.full);
  await Promise.all([waitForHttp(small.url, flat), waitForHttp(full.url, flat)]);
  const measure = async () => {
    for (const side of [small, full]) await saturate(side, WARM_UP_SECONDS);
    return pairedSaturation(small, full, SECONDS);
  };
  const [miss1k, hit1k] = await measure();
  const seedStarted = performance.now();
  seedKeys(seedEnv, { total: KEYS_IN_DATABASE - FLAT_KEYS, real: 0 });
  const seedSeconds = (performance.now() - seedStarted + (seedStarted - started)) / 1000;
  const [miss1m, hit1m] = await measure();
  await stop(flat);
  return { miss1k, hit1k, miss1m, hit1m, seedSeconds };
}

/** Malformed keys (the right prefix, the wrong length and alphabet), one a line in a file; its name. */
function writeMalformedKeys(dir) {
  const file = path.join(dir, "malformed.txt");
  const keys = Array.from({ length: MALFORMED_KEYS }, () => `sk_dev_${randomBytes(18).toString("base64url")}`);
  writeFileSync(file, `${keys.join("\n")}\n`);
  return file;
}

async function benchTarget(label, databaseEnv, compared) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-bench-"));
  // The operator CLI (which prepares the database) signs the activity chain with ENCRYPTION_KEY: the same key as the servers'.
  const baseEnv = {
    ...process.env,
    ...databaseEnv,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  };
  const env = {
    ...baseEnv,
    NODE_ENV: "production",
    MAIL_DISABLED: "1",
    WORKER_DISABLED: "1",
    RATE_LIMIT_DEV_PER_MINUTE: "1000000",
  };
  const running = [];
  try {
    console.log("");
    progress(label, "preparing the database and starting the servers");
    const authorization = `Bearer ${prepareDatabase(baseEnv)}`;
    const servers = await startServers(dir, env, running);
    const app = { url: servers.urls.app, authorization };
    const gated = { url: servers.urls.gated, authorization };
    const noUsage = { url: servers.urls.noUsage, authorization };
    const ungated = { url: servers.urls.ungated, authorization };
    const ceiling = await startCeiling(dir, gated, running);
    const ceilingTarget = { url: ceiling.url, authorization };

    progress(label, "measuring at saturation");
    for (const target of [app, gated, noUsage, ungated, ceilingTarget]) await saturate(target, WARM_UP_SECONDS);
    const r = {};
    [r.usageOn, r.usageOff] = await pairedSaturation(gated, noUsage, SECONDS);
    [r.gated, r.ungated] = await pairedSaturation(gated, ungated, SECONDS);
    r.app = await saturate(app, SECONDS);
    r.ceiling = await saturate(ceilingTarget, SECONDS);
    if (compared && label === "SQLite") {
      progress(label, `comparing the gated row with ${compared.commit.name} (${compared.commit.sha.slice(0, 7)})`);
      r.compare = await compareGated({
        ...compared,
        env,
        authorization,
        seconds: SECONDS,
        logOf: (name) => logOf(dir, name),
        running,
        pausedWhile,
        others: [servers.app, servers.variants, ceiling.process],
      });
    }
    if (label === "SQLite") {
      progress(label, "metrics on against off");
      r.metrics = await metricsPair({
        env,
        authorization,
        seconds: SECONDS,
        logOf: (name) => logOf(dir, name),
        running,
        others: [servers.app, servers.variants, ceiling.process],
      });
    }
    progress(label, "measuring at a fixed rate");
    r.fixed = await fixedRateRows(gated, ungated, ceilingTarget, r.gated.rps, {
      measured: [servers.variants, ceiling.process],
      idle: [servers.app],
    });
    await Promise.all([servers.variants, ceiling.process].map(stop));
    if (label !== "SQLite") {
      progress(label, "two instances behind the load client, against two ceilings");
      const second = await startSecondInstance({ root, env, logFile: logOf(dir, "instance-b"), running });
      const ceilings = [await startCeiling(dir, app, running), await startCeiling(dir, app, running)];
      r.twoInstances = await twoInstanceRow({
        instances: [app, { url: `${second.base}/api/v1/models`, authorization }],
        ceilings: ceilings.map((c) => ({ url: c.url, authorization })),
        seconds: SECONDS,
      });
      await Promise.all(ceilings.map((c) => stop(c.process)));
      progress(label, "revoking keys while two instances serve at half load");
      r.revocation = await revocationRow({
        root,
        env,
        a: new URL(app.url).origin,
        b: second.base,
        authorization,
        // Half load for the pair: together they serve half the two-instance row's aggregate (each a quarter).
        rate: Math.max(1, Math.round(r.twoInstances.instances.rps / 4)),
      });
      await stop(second.process);
    }
    progress(label, `flat keys: 1,000 keys in a table of 1,000, then of ${KEYS_IN_DATABASE.toLocaleString("en")}`);
    r.flat = await flatKeyRows(dir, baseEnv, env, running);
    r.malformed = await saturate({ url: app.url, keys: { file: writeMalformedKeys(dir), offset: 0 } }, SECONDS);
    // The valid side of the malformed row: the same production server, one valid key, right after it.
    r.valid = await saturate(app, SECONDS);
    await stop(servers.app);
    r.usage = usageClosed(readFileSync(servers.app.logFile, "utf8"));
    return r;
  } catch (error) {
    throw new Error(`${label}: ${error.message}\n${logTails(dir)}`, { cause: error });
  } finally {
    await Promise.all(running.map(stop));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The last lines of each server's log, for a run that failed. */
function logTails(dir) {
  return ["app", "variants", "ceiling"]
    .map((name) => {
      try {
        const lines = readFileSync(logOf(dir, name), "utf8").trimEnd().split("\n");
        return `--- ${name}.log\n${lines.slice(-15).join("\n")}`;
      } catch {
        return "";
      }
    })
    .join("\n");
}

console.log(
  `Building (npm run build)… load tool: ${LOAD_TOOL}${LOAD_TOOL === "wrk" ? "" : " (apt-get install wrk for µs latencies)"}`,
);
const build = spawnSync("npm", ["run", "-s", "build"], { cwd: root, encoding: "utf8" });
if (build.status !== 0) {
  console.error(build.stdout, build.stderr);
  process.exit(1);
}
const commit = comparedCommit();
if (commit)
  console.log(
    `Building ${commit.name} (${commit.sha.slice(0, 7)}) in a worktree, to compare its gate with this tree's…`,
  );
const compared = commit ? { commit, ...buildCommit(commit) } : null;
try {
  // First, while nothing else runs: what each step of the gate costs, in-process (scripts/bench/gate-steps.mts).
  const steps = spawnSync(
    path.join(root, "node_modules", ".bin", "tsx"),
    ["--conditions=react-server", "scripts/bench/gate-steps.mts"],
    { cwd: root, encoding: "utf8", env: process.env },
  );
  if (steps.status !== 0) throw new Error(`gate-steps.mts failed: ${steps.stderr}`);
  reportSteps(JSON.parse(steps.stdout.trim().split("\n").at(-1)));
  // What the tracing hook costs with tracing off, in-process (scripts/bench/tracing-hook.mts; about 50 s).
  const hook = spawnSync(
    path.join(root, "node_modules", ".bin", "tsx"),
    ["--conditions=react-server", "scripts/bench/tracing-hook.mts"],
    { cwd: root, encoding: "utf8", env: process.env },
  );
  if (hook.status !== 0) throw new Error(`tracing-hook.mts failed: ${hook.stderr}`);
  const hookCost = JSON.parse(hook.stdout.trim().split("\n").at(-1));
  console.log(
    `Tracing hook, off, against the gate built without it (in-process): ${hookCost.differenceUs} µs a request ` +
      `(${hookCost.withoutHookUs} against ${hookCost.hookOffUs}; goal ≤ 0.2, the median of runs: docs/benchmark.md)`,
  );
  for (const target of benchTargets()) {
    const opened = await target.open();
    try {
      report(target.label, await benchTarget(target.label, opened.env, compared), { seconds: SECONDS });
    } finally {
      await opened.close();
    }
  }
} finally {
  compared?.close();
}
