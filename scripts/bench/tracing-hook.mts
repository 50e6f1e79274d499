// What the gate's tracing hook costs while tracing is off (issue 36: at most
// 0.2 µs a request). Two builds of the public API's bundle, made here as
// scripts/build-gate.mjs makes it and both with esbuild's syntax minifier:
//   - without the hook: lib/public-api/tracing-hook.ts's TRACING_HOOK set to
//     false, so the minifier drops every line the hook guards (checked below:
//     no call of the hook is left in that bundle);
//   - with the hook, tracing off: the code as it is, and no
//     OTEL_EXPORTER_OTLP_ENDPOINT, so the gate is given no tracer.
// A process loads both, each with a runtime of its own on one throw-away
// SQLite database with one key, and sends a cached-key GET /api/v1/models
// straight to each gate, in-process (no sockets: the difference is the
// gate's own), in alternating rounds of REQUESTS_PER_ROUND (A B, then B A).
// In A/A runs on this 2-core machine, shared with other work, one process's
// two builds differed by up to 0.7 µs a request, mostly against the one it
// loaded second, and from one process to the next by as much: the JIT's
// choices (which function is optimized with what inlined) vary with timing.
// So the processes run V8 with --single-threaded (optimizing on the main
// thread, in the same order each time), PROCESSES of them measure, half
// loading each build first, and each figure is the median of its build's
// rounds in all of them (a median shrugs off a process that a neighbour
// slowed down for a while; a mean would not).
//   tsx scripts/bench/tracing-hook.mts
//   TRACING_HOOK_AA=1 tsx scripts/bench/tracing-hook.mts   the same with both builds
//     with the hook: how far two identical builds differ here (the A/A spread)
// Prints one JSON line: { "withoutHookUs": x, "hookOffUs": y, "differenceUs": y - x },
// and to stderr each process's difference of medians, for the spread.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "esbuild";

const PROCESSES = 6;
const ROUNDS = 101;
const REQUESTS_PER_ROUND = 1_000;
const HOOK_LINE = "export const TRACING_HOOK = true;";
/** The argument that makes this script one of the measuring processes. */
const MEASURE = "--measure";

const root = path.resolve(import.meta.dirname, "..", "..");

/** The bundle without the hook: the one constant that guards it, false. */
const withoutHook: Plugin = {
  name: "without-tracing-hook",
  setup(build) {
    build.onLoad({ filter: /lib[/\\]public-api[/\\]tracing-hook\.ts$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      if (!source.includes(HOOK_LINE)) throw new Error(`${args.path} no longer says "${HOOK_LINE}"`);
      return { contents: source.replace(HOOK_LINE, "export const TRACING_HOOK = false;"), loader: "ts" };
    });
  },
};

interface Bundle {
  createRuntime(): { close(): Promise<void> };
  gateServices(runtime: unknown): Record<string, unknown>;
  createGate(services: unknown): (request: Request) => unknown;
  DISCARD_USAGE: unknown;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** µs per request through `gate`, over one round. */
async function round(gate: (request: Request) => unknown, request: Request): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < REQUESTS_PER_ROUND; i++) {
    const answer = gate(request);
    if (answer instanceof Promise) await answer;
  }
  return Number(process.hrtime.bigint() - started) / 1000 / REQUESTS_PER_ROUND;
}

/** One measuring process: loads the bundles in the order given; prints { file: its rounds' µs per request }. */
async function measure(files: string[]) {
  const gates: { gate: (request: Request) => unknown; runtime: { close(): Promise<void> } }[] = [];
  for (const file of files) {
    const bundle = (await import(file)) as Bundle;
    const runtime = bundle.createRuntime();
    gates.push({ gate: bundle.createGate({ ...bundle.gateServices(runtime), usage: bundle.DISCARD_USAGE }), runtime });
  }
  const request = new Request("http://localhost/api/v1/models", {
    headers: { authorization: `Bearer ${process.env.TRACING_HOOK_KEY}`, "x-keyport-peer-ip": "127.0.0.1" },
  });
  for (const { gate } of gates) {
    const { status } = (await gate(request)) as { status: number };
    if (status !== 200) throw new Error(`the key's request was answered ${status}, not 200`);
  }
  // The log lines are built as ever; only their writing is skipped, for both alike.
  const write = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  const times: number[][] = files.map(() => []);
  try {
    for (let i = -2; i < ROUNDS; i++) {
      for (const which of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const perRequest = await round(gates[which]!.gate, request);
        if (i >= 0) times[which]!.push(perRequest);
      }
    }
  } finally {
    process.stderr.write = write;
  }
  for (const { runtime } of gates) await runtime.close();
  process.stdout.write(`${JSON.stringify(Object.fromEntries(files.map((file, i) => [file, times[i]])))}\n`);
}

/** Builds the two bundles, runs PROCESSES measuring processes (each build loaded first by half of them) and prints the figures. */
async function main() {
  const { buildGate } = await import("../build-gate.mjs");
  const { benchTargets, prepareDatabase } = await import("./databases.mjs");
  const target = await benchTargets()
    .find((candidate) => candidate.label === "SQLite")!
    .open();
  mkdirSync(path.join(root, "dist"), { recursive: true });
  // Inside the project: the bundles' packages are external and resolve from its node_modules.
  const dir = mkdtempSync(path.join(root, "dist", "bench-tracing-hook-"));
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...target.env,
      AUTH_SECRET: process.env.AUTH_SECRET ?? randomBytes(32).toString("base64url"),
      ENCRYPTION_KEY: process.env.ENCRYPTION_KEY ?? randomBytes(32).toString("base64"),
      RATE_LIMIT_DEV_PER_MINUTE: "1000000",
      KEYPORT_LOG_TO_STDERR: "1",
    };
    delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
    delete env.METRICS_PORT;
    env.TRACING_HOOK_KEY = prepareDatabase(env);

    const without = path.join(dir, "without-hook.mjs");
    const hookOff = path.join(dir, "hook-off.mjs");
    const aa = process.env.TRACING_HOOK_AA === "1";
    await buildGate(without, { minifySyntax: true, plugins: aa ? [] : [withoutHook] });
    await buildGate(hookOff, { minifySyntax: true });
    // The control: the hook's calls are in one bundle and gone from the other.
    const hookIn = (file: string) => /endRequestSpan\(trace\.span/.test(readFileSync(file, "utf8"));
    if (hookIn(without) !== aa || !hookIn(hookOff)) throw new Error("the two builds do not differ as they should");

    const runs: Record<string, number[]>[] = [];
    for (let i = 0; i < PROCESSES; i++) {
      const order = i % 2 === 0 ? [without, hookOff] : [hookOff, without];
      const child = spawnSync(
        process.execPath,
        [...process.execArgv, "--single-threaded", import.meta.filename, MEASURE, ...order],
        {
          cwd: root,
          env,
          encoding: "utf8",
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      if (child.status !== 0) throw new Error(`the measuring process failed:\n${child.stderr.slice(-4_000)}`);
      runs.push(JSON.parse(child.stdout.trim().split("\n").at(-1)!) as Record<string, number[]>);
    }
    const roundedToNs = (us: number) => Math.round(us * 1000) / 1000;
    const differences = runs.map((run) => roundedToNs(median(run[hookOff]!) - median(run[without]!)));
    process.stderr.write(`${JSON.stringify({ differenceByProcessUs: differences })}\n`);
    const [withoutHookUs, hookOffUs] = [without, hookOff].map((file) => median(runs.flatMap((run) => run[file]!)));
    const result = {
      withoutHookUs: roundedToNs(withoutHookUs!),
      hookOffUs: roundedToNs(hookOffUs!),
      differenceUs: roundedToNs(hookOffUs! - withoutHookUs!),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await target.close();
  }
}

if (process.argv[2] === MEASURE) await measure(process.argv.slice(3));
else await main();
process.exit(0);
