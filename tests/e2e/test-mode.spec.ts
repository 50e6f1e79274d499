// The suite's cheap password hashing (lib/auth/test-hashing.ts) is on in this
// e2e server, which runs the production build on a throw-away database; a
// production server given the same switch with any other database refuses to start.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

function storedHash(email: string): string {
  const database = new Database(path.join(process.env.E2E_DATA_DIR!, "e2e.db"), { readonly: true });
  try {
    const row = database.prepare(`SELECT "passwordHash" AS "hash" FROM "User" WHERE "email" = ?`).get(email) as {
      hash: string;
    };
    return row.hash;
  } finally {
    database.close();
  }
}

/** Starts `node server.mjs` in production; resolves with its exit code and output, or "running" after 60 s. */
function startProduction(env: NodeJS.ProcessEnv): Promise<{ code: number | "running"; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["server.mjs"], {
      cwd: process.cwd(),
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => (output += String(chunk)));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve({ code: "running", output });
    }, 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, output });
    });
  });
}

test("this e2e server hashes with the suite's cheap parameters: its database is a test one", async ({ page }) => {
  const email = uniqueEmail("test-mode");
  await signUp(page, email);
  expect(storedHash(email)).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
});

test("a production server with KEYPORT_TEST_MODE=1 and any other database refuses to start", async () => {
  test.setTimeout(90_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-not-a-test-"));
  try {
    const { code, output } = await startProduction({
      ...process.env,
      NODE_ENV: "production",
      PORT: "3233",
      AUTH_SECRET: process.env.E2E_AUTH_SECRET,
      ENCRYPTION_KEY: process.env.E2E_ENCRYPTION_KEY,
      PUBLIC_BASE_URL: "http://localhost:3233",
      DATABASE_URL: `file:${path.join(dir, "keyport.db")}`,
      KEYPORT_TEST_MODE: "1",
      WORKER_DISABLED: "1",
      MAIL_DISABLED: "1",
    });
    expect(code).toBe(1);
    expect(output).toContain("KEYPORT_TEST_MODE=1 is only for the test suite's throw-away databases");
    expect(output).not.toContain("production server on");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
