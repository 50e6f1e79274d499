import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// Set once in the runner; its workers inherit it, so a test can check that the
// server never logged it.
process.env.E2E_AUTH_SECRET ??= randomBytes(32).toString("base64url");
process.env.E2E_ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
// The throw-away server's data folder, known to the tests too: a test that
// needs time to pass (a session's last proof, say) ages a row there itself.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "keyport-e2e-"));

const port = Number(process.env.E2E_PORT ?? 3210);
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

// The e2e tests drive Debian's Chromium (Playwright's own browser download is
// not available here) against a production build served on localhost.
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"]],
  timeout: 60_000,
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    command: `node tests/e2e/serve.mjs ${port}`,
    env: {
      AUTH_SECRET: process.env.E2E_AUTH_SECRET,
      ENCRYPTION_KEY: process.env.E2E_ENCRYPTION_KEY,
      E2E_DATA_DIR: process.env.E2E_DATA_DIR,
    },
    url: `http://localhost:${port}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
  },
});
