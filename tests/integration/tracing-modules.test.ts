// With OTEL_EXPORTER_OTLP_ENDPOINT unset, tracing costs no module: nothing of
// OpenTelemetry is loaded by it (issue 36). A new Node process loads the
// public API's bundle (built here as scripts/build-gate.mjs builds it, the
// code server.mjs runs), creates the runtime, serves requests with the app's
// gate (a key's first request and a cached one, and a 404), runs the
// background jobs' first ticks and closes; then it lists every module it
// loaded.
//
// How "every module" is known: each module Node loads is either resolved by
// the ES module loader (the bundle, and each package it imports, statically
// or with import()), which a resolve hook registered first thing
// (module.register) records with the module that asked, or loaded by
// require() (CommonJS packages and their own requires), which leaves it in
// require.cache; a CommonJS package imported from an ES module is in both.
// The union is every module of the process.
//
// None at all, then: no @opentelemetry module, imported or required. (The
// metrics' prom-client requires @opentelemetry/api for its exemplars; it is
// loaded only where METRICS_PORT is set, by runtime.startMetrics, and the
// probe sets none.) With the endpoint set, the same probe sees the SDK and
// the exporter imported by the bundle, and its spans reach a receiver here.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "@/lib/keys/lifecycle";
import { buildGate } from "../../scripts/build-gate.mjs";
import { bareAccount } from "../helpers/bare-account";
import { startOtlpReceiver, type OtlpReceiver } from "../helpers/otlp-receiver";

const root = path.resolve(import.meta.dirname, "..", "..");
let dir: string;
let bundle: string;
let secret: string;
let receiver: OtlpReceiver;

const url = (file: string) => JSON.stringify(pathToFileURL(file).href);

beforeAll(async () => {
  // Inside the project: the bundle's packages are external and resolve from its node_modules.
  mkdirSync(path.join(root, "dist"), { recursive: true });
  dir = mkdtempSync(path.join(root, "dist", "test-tracing-modules-"));
  bundle = path.join(dir, "public-api.mjs");
  await buildGate(bundle);
  writeFileSync(path.join(dir, "record-resolutions.mjs"), RESOLVE_HOOK);
  const user = await bareAccount(`tracing-modules.${randomUUID()}@example.com`);
  const actor = { userId: user.id, ip: null, userAgent: null };
  ({ secret } = await createKey(actor, { label: "probe", environment: "dev", expiresAt: null }));
  receiver = await startOtlpReceiver();
}, 60_000);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await receiver.close();
});

/** Appends "parent<TAB>resolved" for each module the ES loader resolves; runs in the loader's thread. */
const RESOLVE_HOOK = `
import { appendFileSync } from "node:fs";
let file;
export function initialize(data) { file = data.file; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(file, (context.parentURL ?? "") + "\\t" + resolved.url + "\\n");
  return resolved;
}
`;

/** The probe: the bundle's runtime and gate serve, the jobs tick, and it prints what it loaded. */
const probe = (resolutions: string) => `
import { createRequire, register } from "node:module";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, get } from "node:http";
import { fileURLToPath } from "node:url";
writeFileSync(${JSON.stringify(resolutions)}, "");
register(${url(path.join(dir, "record-resolutions.mjs"))}, { data: { file: ${JSON.stringify(resolutions)} } });
const api = await import(${url(bundle)});
const runtime = api.createRuntime();
await runtime.tracing?.ready;
const server = createServer(api.publicApiListener(runtime)).listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const send = (path) => new Promise((resolve, reject) =>
  get({ host: "127.0.0.1", port: server.address().port, path, headers: { authorization: "Bearer " + process.env.PROBE_KEY } },
    (res) => res.resume().on("end", () => resolve(res.statusCode))).on("error", reject));
const statuses = [await send("/api/v1/models"), await send("/api/v1/models"), await send("/api/v1/nothing-here")];
runtime.startBackgroundJobs();
await new Promise((resolve) => setTimeout(resolve, 300));
await runtime.close();
server.close();
const require = createRequire(import.meta.url);
const esm = readFileSync(${JSON.stringify(resolutions)}, "utf8").split("\\n").filter(Boolean).map((line) => {
  const [parent, resolved] = line.split("\\t");
  return { parent, module: resolved.startsWith("file:") ? fileURLToPath(resolved) : resolved };
});
const cjs = Object.entries(require.cache).map(([file, module]) => ({ parent: module.parent?.filename ?? "", module: file }));
const otel = [...esm.map((entry) => ({ ...entry, esm: true })), ...cjs].filter((entry) => entry.module.includes("@opentelemetry"));
console.log(JSON.stringify({ statuses, otel }));
process.exit(0);
`;

interface Loaded {
  parent: string;
  module: string;
  esm?: true;
}

/** Runs the probe in a new Node process with `env` added; its statuses and the @opentelemetry modules it loaded. */
async function runProbe(env: Record<string, string | undefined>): Promise<{ statuses: number[]; otel: Loaded[] }> {
  const file = path.join(dir, `probe-${randomUUID()}.mjs`);
  writeFileSync(file, probe(path.join(dir, `resolved-${randomUUID()}.txt`)));
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    MAIL_DISABLED: "1",
    KEYPORT_LOG_TO_STDERR: "1",
    PROBE_KEY: secret,
  };
  delete childEnv.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete childEnv.METRICS_PORT;
  Object.assign(childEnv, env);
  const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd: root, env: childEnv });
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

/** The package a module file belongs to: "@opentelemetry/api" for .../node_modules/@opentelemetry/api/build/... */
const packageOf = (file: string) => /node_modules\/(@opentelemetry\/[^/]+)/.exec(file)?.[1];

describe("OpenTelemetry's modules in a process serving the public API", () => {
  it("are not loaded by tracing while OTEL_EXPORTER_OTLP_ENDPOINT is unset", async () => {
    const { statuses, otel } = await runProbe({});
    expect(statuses).toEqual([200, 200, 404]);
    // Nothing of OpenTelemetry: neither imported by the bundle nor required by a package.
    expect(otel).toEqual([]);
  });

  it("(the probe itself) sees the SDK and the exporter imported by the bundle when it is set, and the spans arrive", async () => {
    const { statuses, otel } = await runProbe({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    expect(statuses).toEqual([200, 200, 404]);
    const imported = otel.filter((entry) => entry.esm && entry.parent === pathToFileURL(bundle).href);
    expect(imported.map((entry) => packageOf(entry.module)).sort()).toEqual([
      "@opentelemetry/api",
      "@opentelemetry/exporter-trace-otlp-http",
      "@opentelemetry/resources",
      "@opentelemetry/sdk-trace-base",
    ]);
    // Sent when the runtime closed: three requests' traces, the first two with their three steps each.
    const requests = receiver.spans.filter((span) => span.kind === 2);
    expect(requests.map((span) => span.name)).toEqual(["GET /api/v1/models", "GET /api/v1/models", "GET"]);
    expect(receiver.spans.filter((span) => span.name === "lookup")).toHaveLength(2);
  });
});
