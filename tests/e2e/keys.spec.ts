import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

async function expectAccessible(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id}: ${v.help}`),
    label,
  ).toEqual([]);
}

function row(page: Page, label: string | RegExp) {
  return page.getByTestId("key-row").filter({ hasText: label });
}

/** A row's status badge, matched exactly (dialog text in the row mentions "revoked" too). */
const status = (page: Page, text: string) => ({ has: page.getByText(text, { exact: true }) });

async function readSecretAndClose(page: Page): Promise<string> {
  const dialog = page.getByRole("dialog");
  const secret = await dialog.getByTestId("new-secret").inputValue();
  expect(secret).toMatch(/^sk_(dev|prod)_[0-9A-Za-z]{38}$/);
  await dialog.getByRole("button", { name: "Copy" }).click();
  await expect(dialog.getByText("Copied to the clipboard.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  return secret;
}

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

test("create, copy, rename, rotate, revoke and report a leaked key, with the activity log after each step", async ({
  page,
}) => {
  await signUp(page, uniqueEmail("keys"));
  await expectAccessible(page, "empty key list");

  // Create a development key, with the keyboard only.
  await page.getByRole("button", { name: "Create key" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Create an API key" });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, "create dialog");
  await page.keyboard.type("dev service"); // the label field has focus first
  await expect(dialog.getByLabel("Label")).toHaveValue("dev service");
  await dialog.getByRole("button", { name: "Create key" }).focus();
  await page.keyboard.press("Enter");
  const devSecret = await readSecretAndClose(page);
  await expect(row(page, "dev service")).toContainText(`${devSecret.slice(0, 11)}…${devSecret.slice(-4)}`);
  await expect(row(page, "dev service")).toContainText("Development");
  await expect(row(page, "dev service")).toContainText("Never");

  // The key works on the public API; a browser session does not stand in for it.
  const models = await page.request.get("/api/v1/models", { headers: { Authorization: `Bearer ${devSecret}` } });
  expect(models.status()).toBe(200);
  expect((await models.json()).object).toBe("list");
  expect((await page.request.get("/api/v1/models")).status()).toBe(401);
  await expect(row(page, "dev service").filter(status(page, "Active"))).toHaveCount(1);

  // A production key, marked as such.
  await page.getByRole("button", { name: "Create key" }).click();
  await dialog.getByLabel("Label").fill("prod service");
  await dialog.getByLabel(/Production/).check();
  await dialog.getByLabel("Expires").selectOption("90");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const prodSecret = await readSecretAndClose(page);
  expect(prodSecret.startsWith("sk_prod_")).toBe(true);
  await expect(row(page, "prod service")).toContainText("Production");
  await expect(row(page, "prod service")).toContainText(/Expires in (89|90) days/);

  // The secret is gone once the page is left.
  await page.reload();
  expect(await page.content()).not.toContain(devSecret);
  expect(await page.content()).not.toContain(prodSecret);
  await expectAccessible(page, "key list");

  // Rename in place.
  await row(page, "dev service").getByRole("button", { name: "Rename dev service" }).click();
  await page.getByLabel("New label for dev service").fill("dev renamed");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(row(page, "dev renamed")).toHaveCount(1);

  // Rotate the production key with a 1-hour grace period.
  await row(page, "prod service").getByRole("button", { name: "Rotate" }).click();
  const rotate = page.getByRole("dialog", { name: "Rotate “prod service”" });
  await expectAccessible(page, "rotate dialog");
  await rotate.getByLabel("In 1 hour").check();
  await rotate.getByRole("button", { name: "Rotate key" }).click();
  const rotatedSecret = await readSecretAndClose(page);
  const prodRows = row(page, "prod service");
  await expect(prodRows).toHaveCount(2);
  await expect(prodRows.filter({ hasText: "Expiring after rotation" })).toContainText("Expires in 1 hour");
  await expect(prodRows.filter({ hasText: "Expiring after rotation" })).toContainText("Never"); // last used

  // Revoke the development key, with a reason.
  await row(page, "dev renamed").getByRole("button", { name: "Revoke" }).click();
  const revoke = page.getByRole("dialog", { name: "Revoke “dev renamed”" });
  await expectAccessible(page, "revoke dialog");
  await revoke.getByLabel("Reason (optional)").fill("service retired");
  await revoke.getByRole("button", { name: "Revoke key" }).click();
  await expect(revoke.getByRole("status")).toContainText("It stopped working just now.");
  await revoke.getByRole("button", { name: "Close" }).click();
  await expect(row(page, "dev renamed").filter(status(page, "Revoked"))).toHaveCount(1);
  // The very next API call with the revoked key fails.
  const afterRevoke = await page.request.get("/api/v1/models", { headers: { "X-API-Key": devSecret } });
  expect(afterRevoke.status()).toBe(401);
  expect((await afterRevoke.json()).error.code).toBe("revoked_api_key");

  // The rotated-in production key leaks.
  const activeProd = prodRows.filter(status(page, "Active"));
  await activeProd.getByRole("button", { name: "This key leaked" }).click();
  const leak = page.getByRole("dialog", { name: "“prod service” leaked" });
  await leak.getByRole("button", { name: "Revoke and replace now" }).click();
  await expect(leak.getByRole("link", { name: "leaked-key checklist" })).toHaveAttribute(
    "href",
    "/docs/managing-keys#leaked-key-checklist",
  );
  const replacementSecret = await readSecretAndClose(page);
  expect(replacementSecret).not.toBe(rotatedSecret);
  await expect(prodRows).toHaveCount(3);
  await expect(prodRows.filter(status(page, "Revoked"))).toHaveCount(1);
  await expect(prodRows.filter(status(page, "Active"))).toHaveCount(1);
  await expect(prodRows.filter(status(page, "Expiring after rotation"))).toHaveCount(1);

  // Filters.
  await page.getByLabel("Status").selectOption("revoked");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByTestId("key-row")).toHaveCount(2);
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page.getByTestId("key-row")).toHaveCount(4);

  // The activity log, newest first.
  await page.getByRole("link", { name: "Activity", exact: true }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/activity$/);
  const events = page.getByTestId("activity-row");
  await expect(events.nth(0)).toContainText("Key reported leaked");
  await expect(events.nth(1)).toContainText("Key revoked");
  await expect(events.nth(1)).toContainText("Reason: service retired");
  await expect(events.nth(2)).toContainText("Key rotated");
  await expect(events.nth(3)).toContainText("“dev service” → “dev renamed”");
  await expect(events.nth(4)).toContainText("Key created");
  await expect(events.nth(5)).toContainText("Key created");
  await expect(events.nth(6)).toContainText("Signed in");
  await expectAccessible(page, "activity page");
  for (const secret of [devSecret, prodSecret, rotatedSecret, replacementSecret]) {
    expect(await page.content()).not.toContain(secret);
  }
});
