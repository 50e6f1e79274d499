#!/usr/bin/env node
// Serves the production build for the e2e tests on a throw-away SQLite
// database (never the development one), migrated with the committed
// migrations. The server runs as a direct child (node server.mjs, not npx),
// so stopping this process stops it too. Its output is also written to
// .test-logs/e2e-server.log, which a test greps for secrets.
import { execFileSync, spawn } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..", "..");
const port = process.argv[2] ?? "3210";
const dir = process.env.E2E_DATA_DIR || mkdtempSync(path.join(os.tmpdir(), "keyport-e2e-"));
const env = {
  ...process.env,
  NODE_ENV: "production",
  PORT: port,
  DATABASE_URL: `file:${path.join(dir, "e2e.db")}`,
  PUBLIC_BASE_URL: `http://localhost:${port}`,
  // Every e2e account signs up from 127.0.0.1.
  SIGN_UP_LIMIT_PER_HOUR: "1000",
  // The docs test runs every example (about a hundred calls) with one dev key.
  RATE_LIMIT_DEV_PER_MINUTE: "1000",
  // No SMTP_URL: mail goes to a development outbox in the throw-away folder,
  // where the tests read it (tests/e2e/outbox.ts).
  MAIL_OUTBOX_DIR: path.join(dir, "outbox"),
  MAIL_INTERVAL_SECONDS: "1",
  // Paced tokens, so the streaming test can see events arrive one by one.
  SANDBOX_TOKEN_DELAY_MS: "15",
  // The metrics listener, beside the public port (the wall test scrapes it and checks the public port has none).
  METRICS_PORT: process.env.E2E_METRICS_PORT ?? String(Number(port) + 1000),
  // Cheap password hashing: allowed because the database is in a keyport-e2e-* folder (lib/auth/test-hashing.ts).
  KEYPORT_TEST_MODE: "1",
};
if (!env.AUTH_SECRET) throw new Error("serve.mjs needs AUTH_SECRET (playwright.config.ts sets it).");

execFileSync(path.join(root, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
  cwd: root,
  env,
  stdio: "ignore",
});

mkdirSync(path.join(root, ".test-logs"), { recursive: true });
const logFile = createWriteStream(path.join(root, ".test-logs", "e2e-server.log"));
const server = spawn(process.execPath, [path.join(root, "server.mjs")], {
  cwd: root,
  env,
  stdio: ["ignore", "pipe", "pipe"],
});
for (const stream of [server.stdout, server.stderr]) {
  stream.on("data", (chunk) => {
    logFile.write(chunk);
    process.stdout.write(chunk);
  });
}
const stop = () => server.kill("SIGTERM");
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
server.on("exit", (code) => {
  logFile.end();
  rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
