// Production instances for the services tests: `node server.mjs` on the build
// that `npm test` makes, each on a free port, stopped when the file ends.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
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

export function requireBuild(): void {
  if (!existsSync(path.join(projectRoot, ".next", "BUILD_ID")))
    throw new Error("Run `npx next build` first (npm test does).");
}

/** Starts one instance and waits for /healthz; answers its base URL on 127.0.0.1 and its port. */
export async function startInstance(env: Record<string, string>): Promise<{ base: string; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(projectRoot, "server.mjs")], {
    cwd: projectRoot,
    env: {
      ...process.env,
      ...env,
      NODE_ENV: "production",
      PORT: String(port),
      AUTH_SECRET: secret,
      WORKER_DISABLED: "1",
    },
    stdio: "ignore",
  });
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { base, port };
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
