import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { ageSessions } from "../e2e/e2e-database";
import { createKey, rowAction, saveNewSecret, signUp } from "../e2e/helpers";

// npm runs scripts from the project root.
const OUT = path.resolve("docs", "screenshots");
const REVIEW = path.resolve(".scratch", "review");

async function shoot(page: Page, file: string) {
  // Relative times ("now", "in 90 days") are the only moving parts; the email is fixed.
  await page.screenshot({ path: path.join(OUT, file), fullPage: false });
}

test("the README's screenshots", async ({ page }) => {
  mkdirSync(OUT, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = `ada-${Date.now()}@example.com`;
  await signUp(page, email);
  await createKey(page, "billing service", { environment: "Production", expires: "In 90 days" });
  await createKey(page, "search indexer");
  // A restricted key, so the list shows what a restriction looks like.
  await page.getByRole("link", { name: "search indexer" }).click();
  await page.getByRole("button", { name: "Edit access of “search indexer”" }).click();
  await page.getByRole("radio", { name: /Read only/ }).check();
  await page.getByLabel("IP allowlist (optional)").fill("203.0.113.0/24");
  await page.getByRole("button", { name: "Save access" }).click();
  await expect(page.getByTestId("toast")).toBeVisible();
  await page.goto("/dashboard");
  await createKey(page, "nightly export", { environment: "Production" });
  const rotate = await rowAction(page, "nightly export", "Rotate");
  await rotate.getByRole("button", { name: "Rotate key" }).click();
  const nightly = await saveNewSecret(page);
  // Some usage for the key page: successes on two routes and a refused body.
  const headers = { Authorization: `Bearer ${nightly}`, "User-Agent": "nightly-export/2.3 (+https://example.com)" };
  for (let i = 0; i < 6; i++) await page.request.get("/api/v1/models", { headers });
  for (let i = 0; i < 3; i++) await page.request.get("/api/v1/media_models", { headers });
  await page.request.post("/api/v1/chat/completions", {
    headers: { ...headers, "Content-Type": "application/json" },
    data: "{",
  });
  await page.goto("/dashboard");
  await expect(page.getByTestId("key-row")).toHaveCount(4);
  await shoot(page, "key-list.png");

  await page.getByRole("link", { name: "nightly export" }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("nightly export");
  // The usage buffer flushes every second.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("usage-totals")).toContainText("10 requests", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await shoot(page, "key-page.png");
  const keyPage = new URL(page.url()).pathname;
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "search indexer" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("search indexer");
  const restrictedKeyPage = new URL(page.url()).pathname;

  await page.goto("/docs/authentication");
  await shoot(page, "docs-authentication.png");

  if (!process.env.SCREENSHOT_REVIEW) return;
  mkdirSync(REVIEW, { recursive: true });
  // For the review only: a key a stranger reported through the form (the
  // dashboard's notice), and a decoy that someone tried (the note under it).
  await page.goto("/dashboard");
  const reported = await createKey(page, "old deploy script");
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an API key" });
  await dialog.getByLabel("Label").fill("ci decoy");
  await dialog.getByLabel(/Decoy key/).check();
  await dialog.getByRole("button", { name: "Create key" }).click();
  const decoy = await saveNewSecret(page);
  await page.request.get("/api/v1/models", { headers: { Authorization: `Bearer ${decoy}` } });
  await page.goto("/report-a-key");
  await page.getByLabel("The key you found").fill(reported);
  await page.getByLabel("Where you found it (optional)").fill("https://gist.example/0123456789abcdef");
  await page.getByRole("button", { name: "Report this key" }).click();
  await expect(page.getByRole("status")).toBeVisible();
  const pages = [
    "/dashboard",
    "/dashboard?inactive=1",
    keyPage,
    "/dashboard/activity",
    "/account",
    "/account/two-factor",
    "/sign-in",
    "/sign-up",
    "/sign-up/check-inbox",
    "/forgot-password",
    "/report-a-key",
    "/",
    "/docs/routes/gemini-stream-generate-content",
  ];
  for (const colorScheme of ["light", "dark"] as const) {
    for (const width of [1280, 390]) {
      const tag = `${width}-${colorScheme}`;
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      for (const href of pages) {
        await page.goto(href);
        const name = href === keyPage ? "key-page" : href.replace(/[^a-z0-9]+/gi, "_") || "home";
        await page.screenshot({ path: path.join(REVIEW, `${name}-${tag}.png`), fullPage: true });
      }
      await page.goto("/account/two-factor");
      // Started on the first pass (while the session is fresh); later passes find the setup waiting.
      const setUp = page.getByRole("button", { name: "Set up two-factor sign-in" });
      if (await setUp.isVisible()) await setUp.click();
      await expect(page.getByTestId("totp-qr")).toBeVisible();
      await page.screenshot({ path: path.join(REVIEW, `two-factor-setup-${tag}.png`), fullPage: true });
      // The fresh sign-in dialog, before a production key change on a session that proved itself long ago.
      ageSessions(email);
      await page.goto("/dashboard");
      await rowAction(page, "billing service", "Revoke");
      await page.getByRole("button", { name: "Revoke key" }).click();
      await expect(page.getByRole("dialog", { name: "Confirm it’s you" })).toBeVisible();
      await page.screenshot({ path: path.join(REVIEW, `step-up-dialog-${tag}.png`) });
      await page.keyboard.press("Escape");
      await page.goto(restrictedKeyPage);
      await page.getByRole("button", { name: "Edit access of “search indexer”" }).click();
      await page.screenshot({ path: path.join(REVIEW, `key-access-edit-${tag}.png`), fullPage: true });
      await page.goto("/dashboard");
      await page.getByRole("button", { name: "Actions for “billing service”" }).click();
      await page.screenshot({ path: path.join(REVIEW, `menu-${tag}.png`) });
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Create key" }).click();
      await page.screenshot({ path: path.join(REVIEW, `create-dialog-${tag}.png`) });
      // The restriction fields, with chosen scopes and the routes they allow.
      await page
        .getByRole("dialog")
        .getByRole("radio", { name: /Chosen scopes/ })
        .check();
      await page
        .getByRole("dialog")
        .getByRole("checkbox", { name: /models:invoke/ })
        .check();
      await page
        .getByRole("dialog")
        .getByText(/Can call \d+ of 13 routes/)
        .click();
      await page
        .getByRole("dialog")
        .getByLabel(/Rate limit/)
        .scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(REVIEW, `create-dialog-scopes-${tag}.png`) });
      await page.getByRole("dialog").getByLabel("Label").fill("review");
      await page.getByRole("dialog").getByRole("button", { name: "Create key" }).click();
      await expect(page.getByRole("alertdialog")).toBeVisible();
      await page.screenshot({ path: path.join(REVIEW, `secret-dialog-${tag}.png`) });
      await saveNewSecret(page);
      await rowAction(page, "review", "Revoke");
      await page.screenshot({ path: path.join(REVIEW, `revoke-dialog-${tag}.png`) });
      await page.getByRole("button", { name: "Revoke key" }).click();
      await expect(page.getByTestId("toast").first()).toBeVisible();
    }
  }
});
