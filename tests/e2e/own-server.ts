// A production server of a test's own (node server.mjs, the build the suite
// serves), on a throw-away SQLite database in its own folder, for a test that
// must change what every request of the shared e2e server relies on (its
// database's write lock, say). Stopped and removed by `stop()`.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface OwnServer {
  baseUrl: string;
  /** The SQLite file it serves. */
  databaseFile: string;
  /** Its development outbox, for tests/e2e/outbox.ts. */
  outbox: string;
  stop(): Promise<void>;
}

export async function startOwnServer(port: number, env: Record<string, string> = {}): Promise<OwnServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-e2e-own-"));
  const baseUrl = `http://localhost:${port}`;
  const databaseFile = path.join(dir, "own.db");
  const outbox = path.join(dir, "outbox");
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    DATABASE_URL: `file:${databaseFile}`,
    PUBLIC_BASE_URL: baseUrl,
    AUTH_SECRET: process.env.E2E_AUTH_SECRET,
    ENCRYPTION_KEY: process.env.E2E_ENCRYPTION_KEY,
    MAIL_OUTBOX_DIR: outbox,
    MAIL_INTERVAL_SECONDS: "1",
    FILES_DIR: path.join(dir, "files"),
    WORKER_DISABLED: "1",
    KEYPORT_TEST_MODE: "0",
    ...env,
  };
  execFileSync(path.join("node_modules", ".bin", "prisma"), ["migrate", "deploy"], { env: serverEnv, stdio: "ignore" });
  const child = spawn(process.execPath, ["server.mjs"], { env: serverEnv, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => (output += String(chunk)));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const stop = async () => {
    child.kill("SIGTERM");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  for (const deadline = Date.now() + 60_000; ;) {
    const healthy = await fetch(`${baseUrl}/healthz`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (healthy) return { baseUrl, databaseFile, outbox, stop };
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the server on port ${port} did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
