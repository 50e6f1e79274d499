import { expect, test } from "@playwright/test";

test("the landing page says what Keyport is and leads to the docs", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveTitle("Keyport: API keys and docs for the Keyport API");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("The developer portal for the Keyport API");
  await expect(page.getByRole("link", { name: "Open the dashboard" })).toHaveAttribute("href", "/dashboard");
  await expect(page.getByRole("link", { name: "Sign up" })).toHaveAttribute("href", "/sign-up");

  await page.getByRole("link", { name: "Read the docs" }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("The Keyport API");
  await expect(page.getByRole("table", { name: "The public API's routes" }).getByRole("row")).toHaveCount(14);
});

test("an unknown page gets the 404 page", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
});

test("the skip link is the first stop for keyboard users", async ({ page }) => {
  await page.goto("/");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
});
