#!/usr/bin/env node
// Serves the production build for the e2e tests on a throw-away SQLite
// database (never the development one), migrated with the committed
// migrations. `next start` runs as a direct child, not through npx, so
// stopping this process stops the server too.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..", "..");
const port = process.argv[2] ?? "3210";
const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-e2e-"));
const env = {
  ...process.env,
  NODE_ENV: "production",
  DATABASE_URL: `file:${path.join(dir, "e2e.db")}`,
  AUTH_SECRET: randomBytes(32).toString("base64url"),
  PUBLIC_BASE_URL: `http://localhost:${port}`,
};

execFileSync(path.join(root, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
  cwd: root,
  env,
  stdio: "ignore",
});

const server = spawn(path.join(root, "node_modules", ".bin", "next"), ["start", "-p", port], {
  cwd: root,
  env,
  stdio: "inherit",
});
const stop = () => server.kill("SIGTERM");
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
server.on("exit", (code) => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
