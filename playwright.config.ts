import { randomBytes } from "node:crypto";
import { defineConfig } from "@playwright/test";

// Set once in the runner; its workers inherit it, so a test can check that the
// server never logged it.
process.env.E2E_AUTH_SECRET ??= randomBytes(32).toString("base64url");

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
    env: { AUTH_SECRET: process.env.E2E_AUTH_SECRET },
    url: `http://localhost:${port}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
  },
});
