// Next wraps the global Date in the server's process, and through its wrapper
// the public API answered 20 to 30% fewer requests a second. server.mjs keeps
// the process's own Date first thing (lib/http/native-date.mjs) and the
// bundle is built to use it (lib/public-api/native-date.ts). This builds the
// bundle as scripts/build-gate.mjs does, loads it in a process whose global
// Date is then wrapped as Next wraps it, and counts what reaches the wrapper
// while the bundle answers a request (whose log line carries the time).
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGate } from "../../scripts/build-gate.mjs";

const root = path.resolve(import.meta.dirname, "..", "..");
let dir: string;
let bundle: string;

beforeAll(async () => {
  // Inside the project: the bundle's packages are external and resolve from its node_modules.
  mkdirSync(path.join(root, "dist"), { recursive: true });
  dir = mkdtempSync(path.join(root, "dist", "test-bundle-date-"));
  bundle = path.join(dir, "public-api.mjs");
  await buildGate(bundle);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `script` (ESM) in a new Node process from the project's root; its last stdout line, parsed. */
async function runScript(script: string) {
  const file = path.join(dir, `probe-${randomBytes(4).toString("hex")}.mjs`);
  writeFileSync(file, script);
  const env = {
    ...process.env,
    NODE_ENV: "production" as const,
    DATABASE_URL: `file:${path.join(dir, "unused.db")}`,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    PUBLIC_BASE_URL: "http://localhost:3000",
    KEYPORT_LOG_TO_STDERR: "1",
  };
  const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd: root, env });
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

const url = (file: string) => JSON.stringify(pathToFileURL(file).href);

/** A process that wraps Date as Next does, then has the bundle answer one request: its status and the wrapper's calls. */
const probe = ({ keepNativeDate }: { keepNativeDate: boolean }) => `
${keepNativeDate ? `import ${url(path.join(root, "lib", "http", "native-date.mjs"))};` : ""}
import { createServer, get } from "node:http";
const Own = Date;
let wrapped = 0;
// As next/dist/server/node-environment-extensions/date.js does.
globalThis.Date = new Proxy(Own, {
  construct(target, args, newTarget) { wrapped++; return Reflect.construct(target, args, newTarget); },
  apply(target, self, args) { wrapped++; return Reflect.apply(target, self, args); },
  get(target, key) { if (key === "now") return () => (wrapped++, Own.now()); return Reflect.get(target, key); },
});
const api = await import(${url(bundle)});
const server = createServer(api.publicApiListener(api.createRuntime(), api.createUngatedBaseline())).listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
// Packages read the clock as they load (Prisma's debug module): only the request counts.
wrapped = 0;
const status = await new Promise((resolve, reject) =>
  get(\`http://127.0.0.1:\${server.address().port}/api/v1/models\`, (res) => res.resume().on("end", () => resolve(res.statusCode))).on("error", reject),
);
console.log(JSON.stringify({ status, wrapped }));
server.close();
`;

describe("the public API's bundle in a process where Next wrapped Date", () => {
  it("reads the clock through the process's own Date, kept before the wrapper, never the wrapper", async () => {
    const result = await runScript(probe({ keepNativeDate: true }));
    expect(result).toEqual({ status: 200, wrapped: 0 });
  });

  it("(the probe itself) sees the wrapper used when nothing kept the process's Date", async () => {
    const result = await runScript(probe({ keepNativeDate: false }));
    expect(result.status).toBe(200);
    expect(result.wrapped).toBeGreaterThan(0);
  });
});
