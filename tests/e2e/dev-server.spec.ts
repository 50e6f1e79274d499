// `npm run dev` works at http://127.0.0.1 as well as at http://localhost: Next
// refuses other origins' requests for its development scripts unless they are
// allowed (allowedDevOrigins), and then no button that needs JavaScript works.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

const root = process.cwd();

test("the development server hydrates at localhost and at 127.0.0.1", async ({ browser }) => {
  test.setTimeout(360_000);
  const port = 3232;
  const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-dev-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "development",
    PORT: String(port),
    DATABASE_URL: `file:${path.join(dir, "dev.db")}`,
    AUTH_SECRET: process.env.E2E_AUTH_SECRET,
    ENCRYPTION_KEY: process.env.E2E_ENCRYPTION_KEY,
    WORKER_DISABLED: "1",
  };
  delete env.PUBLIC_BASE_URL; // the default follows PORT
  execFileSync(path.join(root, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], { env, stdio: "ignore" });
  const server = spawn(process.execPath, [path.join(root, "server.mjs"), "--dev"], { env, stdio: "ignore" });
  try {
    for (let i = 0; i < 600; i++) {
      if (
        await fetch(`http://localhost:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    for (const host of ["localhost", "127.0.0.1"]) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const refused: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" && /cross-origin|ERR_INVALID_HTTP_RESPONSE|Blocked/i.test(message.text())) {
          refused.push(message.text());
        }
      });
      await page.goto(`http://${host}:${port}/sign-up`, { timeout: 180_000 });
      // Hydrated, on a settled page: the development server may still reload
      // the page once while it compiles (a busy machine makes that later), which
      // would take the form, or a poll's page, away. So: no request in flight,
      // then React attached to the form, checked again after a quiet moment.
      const hydrated = () =>
        page
          .evaluate(() => {
            const form = document.querySelector("form");
            return !!form && Object.keys(form).some((key) => key.startsWith("__reactFiber"));
          })
          .catch(() => false); // the page navigated under the check: not yet
      await expect
        .poll(
          async () => {
            await page.waitForLoadState("networkidle", { timeout: 60_000 }).catch(() => {});
            return (await hydrated()) && (await page.waitForTimeout(500), await hydrated());
          },
          { timeout: 150_000 },
        )
        .toBe(true);
      // And it behaves like it: a refusal shows without a page load, keeping what was typed.
      await page.getByLabel("Email").fill("dev@example.com");
      await page.getByLabel("Password").fill("short");
      await page.getByRole("button", { name: "Create account" }).click();
      // The first action compiles on demand: allow it the time a busy machine takes.
      await expect(page.locator("form").getByRole("alert")).toHaveText("Use at least 10 characters.", {
        timeout: 60_000,
      });
      await expect(page.getByLabel("Password")).toHaveValue("short");
      expect(refused, host).toEqual([]);
      await context.close();
    }
  } finally {
    // Its folder goes once it has stopped: a shutdown still writes (usage, the outbox) until then.
    const exited =
      server.exitCode === null && server.signalCode === null
        ? new Promise((resolve) => server.once("exit", resolve))
        : Promise.resolve();
    server.kill("SIGTERM");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
});
