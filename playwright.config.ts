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
// Every test signs up its own account and makes its own keys, so tests run in
// parallel on one server, even those of one file; KEYPORT_E2E_WORKERS=1 runs
// them one at a time.
const workers = Number(process.env.KEYPORT_E2E_WORKERS) || 2;

const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"]],
  // Twice what a test takes alone on an idle machine, at the most: tests share two cores with the server and each other.
  timeout: 120_000,
  // Assertions wait longer than Playwright's 5 s: a busy 2-core machine is slow, not wrong.
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://localhost:${port}`,
    // No trace by default: recording one for every test (to keep only the failures') cost a fifth of the
    // run's time here, most of it the screencast. To look into a failure:
    // npx playwright test --trace retain-on-failure <file>.
    trace: "off",
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  },
  projects: [
    // What `npm test` runs: every flow, without the sweeps (tests/e2e/sweep.ts) and the development server.
    {
      name: "chromium",
      use: { browserName: "chromium" },
      testIgnore: ["zz-logs.spec.ts", "dev-server.spec.ts"],
      grepInvert: /@sweep/,
    },
    // The log scans read what the whole run left behind: they start once every other test has finished.
    { name: "logs", use: { browserName: "chromium" }, testMatch: "zz-logs.spec.ts", dependencies: ["chromium"] },
    // CI's (.ci/run, after npm test; docs/testing.md says why): the sweeps over every page, and `npm run dev` in a
    // browser (compiling pages on demand fills both cores for half a minute, for a check few commits touch);
    // then the same log scan over what they left.
    { name: "sweeps", use: { browserName: "chromium" }, testIgnore: ["zz-logs.spec.ts"], grep: /@sweep/ },
    { name: "dev-server", use: { browserName: "chromium" }, testMatch: "dev-server.spec.ts" },
    {
      name: "ci-logs",
      use: { browserName: "chromium" },
      testMatch: "zz-logs.spec.ts",
      dependencies: ["sweeps", "dev-server"],
    },
  ],
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
