// `npm run screenshots`: the README's three pictures (docs/screenshots/), from
// the same production build and throw-away server as the end-to-end tests.
import path from "node:path";
import { expect, test } from "@playwright/test";
import { buildScene, shoot } from "./scene";

// npm runs scripts from the project root.
const OUT = path.resolve("docs", "screenshots");

test("the README's screenshots", async ({ page }) => {
  const { keyPage } = await buildScene(page);
  await page.goto("/dashboard");
  await expect(page.getByTestId("key-row")).toHaveCount(4);
  await shoot(page, path.join(OUT, "key-list.png"));

  await page.goto(keyPage);
  // The usage buffer flushes every second.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("usage-totals")).toContainText("10 requests", { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await shoot(page, path.join(OUT, "key-page.png"));

  await page.goto("/docs/authentication");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await shoot(page, path.join(OUT, "docs-authentication.png"));
});
