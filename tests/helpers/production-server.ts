// Production instances for the services tests: `node server.mjs` on the build
// that `npm test` makes, each on a free port, stopped when the file ends.
// Each instance's stdout is kept, so a test can read the request log's lines
// (one `api.request` line per public API request, found by its X-Request-Id).
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync } from "node:fs";
import { connect, createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { projectRoot } from "./test-database";

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const children: ChildProcess[] = [];
const secret = randomBytes(32).toString("base64url");
const encryptionKey = randomBytes(32).toString("base64");
/** Where every instance's mail goes (no SMTP_URL: the development outbox), for the e2e helpers to read. */
export const outboxDir = mkdtempSync(path.join(os.tmpdir(), "keyport-outbox-"));
const START_TIMEOUT_MS = 30_000;
const LOG_LINE_TIMEOUT_MS = 5_000;

export function requireBuild(): void {
  if (
    !existsSync(path.join(projectRoot, ".next", "BUILD_ID")) ||
    !existsSync(path.join(projectRoot, "dist", "public-api.mjs"))
  )
    throw new Error("Run `npm run build` first (npm test does).");
}

/** The gate's log line for one request (lib/public-api/gate.ts). */
export interface RequestLine {
  event: "api.request";
  request_id: string;
  key_id?: string;
  /** Whether the instance's key cache answered, after checking the key's version in the database. */
  key_cache?: "hit" | "miss";
  route: string | null;
  status: number;
  [field: string]: unknown;
}

export interface Instance {
  /** http://127.0.0.1:PORT */
  base: string;
  port: number;
  /** The api.request lines this instance has written so far, oldest first. */
  requestLog(): RequestLine[];
  /** The api.request line of the request whose X-Request-Id this is; waits for it to reach this process. */
  logLine(requestId: string | null): Promise<RequestLine>;
  stop(): void;
  /** Sends the process a signal (SIGSTOP pauses it, SIGCONT resumes it). */
  signal(name: NodeJS.Signals): void;
}

function parseRequestLine(line: string): RequestLine | null {
  if (!line.startsWith("{")) return null;
  try {
    const parsed = JSON.parse(line) as { event?: unknown };
    return parsed.event === "api.request" ? (parsed as RequestLine) : null;
  } catch {
    return null;
  }
}

/** Starts one instance and waits for /healthz; answers its base URL on 127.0.0.1, its port and its request log. */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(projectRoot, "server.mjs")], {
    cwd: projectRoot,
    env: {
      ...process.env,
      MAIL_OUTBOX_DIR: outboxDir,
      ...env,
      NODE_ENV: "production",
      PORT: String(port),
      // The address the tests' browser opens: form posts must come from the deployment's own origin (proxy.ts).
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      AUTH_SECRET: secret,
      ENCRYPTION_KEY: encryptionKey,
      WORKER_DISABLED: "1",
    },
    stdio: ["ignore", "pipe", "ignore"],
  });
  children.push(child);
  const lines: RequestLine[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const parsed = parseRequestLine(line);
    if (parsed) lines.push(parsed);
  });
  const base = `http://127.0.0.1:${port}`;
  const instance: Instance = {
    base,
    port,
    requestLog: () => [...lines],
    async logLine(requestId) {
      if (!requestId) throw new Error("the response carries no X-Request-Id");
      // The line is written before the response is sent, but reaches this process through a pipe.
      const deadline = Date.now() + LOG_LINE_TIMEOUT_MS;
      for (;;) {
        const found = lines.find((line) => line.request_id === requestId);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no api.request line for ${requestId} on ${base}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    stop: () => child.kill("SIGTERM"),
    signal: (name) => child.kill(name),
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return instance;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`instance on ${port} did not start`);
}

export function stopInstances(): void {
  for (const child of children.splice(0)) child.kill("SIGTERM");
}

/** Starts a throw-away redis-server on `port` and waits until it accepts connections. */
export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      const settle = (listening: boolean) => {
        socket.destroy();
        resolve(listening);
      };
      socket.once("connect", () => settle(true)).once("error", () => settle(false));
    });
    if (up) return child;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server did not start on ${port}`);
}

/** Kills a redis-server (as a crash would) and waits until it has exited. */
export async function stopRedis(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  await exited;
}
