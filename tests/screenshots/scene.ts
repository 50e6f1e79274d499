// The account the screenshots show: three keys (one production key with an
// expiry, one restricted, one rotated) and some usage on the rotated one.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { createKey, rowAction, saveNewSecret, signUp } from "../e2e/helpers";
import { pictureProblems } from "./picture-check";

export interface Scene {
  email: string;
  /** The rotated key's page, with usage. */
  keyPage: string;
  restrictedKeyPage: string;
}

export async function buildScene(page: Page): Promise<Scene> {
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
  const restrictedKeyPage = new URL(page.url()).pathname;
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
  await page.getByRole("link", { name: "nightly export" }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("nightly export");
  const keyPage = new URL(page.url()).pathname;
  return { email, keyPage, restrictedKeyPage };
}

/**
 * Takes a screenshot and checks what was written: a PNG at least as wide as
 * the viewport (exactly as wide unless a full page scrolls sideways) that is
 * not one flat colour.
 */
export async function shoot(page: Page, file: string, options: { fullPage?: boolean } = {}) {
  mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: options.fullPage ?? false });
  expect(pictureProblems(readFileSync(file), page.viewportSize()!.width, options), file).toEqual([]);
}
