// The dashboard bugs from issue 13, each reproduced as a user met it.
import { expect, test, type Page } from "@playwright/test";
import {
  choose,
  createKey,
  finishSignUp,
  keyRow,
  personalTeamUrl,
  rowAction,
  saveNewSecret,
  signUp,
  uniqueEmail,
} from "./helpers";
import { copyKey } from "./e2e-database";

const tomorrow = () => new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10);
const yesterday = () => new Date(Date.now() - 24 * 3600_000).toISOString().slice(0, 10);

async function filterActive(page: Page) {
  await choose(page, page.getByLabel("Status"), "Active");
  await expect(page).toHaveURL(/status=active/);
}

test("rotating and reporting a leak under the Active filter still show the new secret", async ({ page }) => {
  await signUp(page, uniqueEmail("filtered"));
  await createKey(page, "rotated under filter");
  await createKey(page, "leaked under filter", { environment: "Production" });
  await filterActive(page);

  // Rotating makes the row "expiring", so it leaves this view while the action answers.
  const rotate = await rowAction(page, "rotated under filter", "Rotate");
  await rotate.getByLabel("In 7 days").check();
  await rotate.getByRole("button", { name: "Rotate key" }).click();
  await expect(page.getByRole("alertdialog", { name: "Save your new key “rotated under filter”" })).toBeVisible();
  const rotated = await saveNewSecret(page);
  expect(rotated).toMatch(/^sk_dev_/);
  expect((await page.request.get("/api/v1/models", { headers: { Authorization: `Bearer ${rotated}` } })).status()).toBe(
    200,
  );

  // Reporting a leak revokes the production key at once: its replacement must be seen.
  const leak = await rowAction(page, "leaked under filter", "Report leaked");
  await leak.getByRole("button", { name: "Revoke and replace now" }).click();
  const replacement = await saveNewSecret(page);
  expect(replacement).toMatch(/^sk_prod_/);
  expect(
    (await page.request.get("/api/v1/models", { headers: { Authorization: `Bearer ${replacement}` } })).status(),
  ).toBe(200);
  // Under the Active filter, each label now shows only its replacement.
  await expect(keyRow(page, "rotated under filter")).toHaveCount(1);
  await expect(keyRow(page, "leaked under filter")).toHaveCount(1);
});

test("rotating the last row of a full page shows the new secret although the row moves to page 2", async ({ page }) => {
  const email = uniqueEmail("fullpage");
  await signUp(page, email);
  await createKey(page, "oldest key");
  copyKey(
    email,
    "oldest key",
    Array.from({ length: 24 }, (_, i) => `filler ${i + 1}`),
  );
  await page.reload();
  await expect(page.getByTestId("key-row")).toHaveCount(25);
  await expect(page.getByTestId("key-row").last()).toContainText("oldest key");

  const rotate = await rowAction(page, "oldest key", "Rotate");
  await rotate.getByRole("button", { name: "Rotate key" }).click(); // the default grace, 24 hours
  const secret = await saveNewSecret(page);
  expect(secret).toMatch(/^sk_dev_/);
  // The new key heads page 1; the rotated one went to page 2.
  await expect(page.getByTestId("key-row").first()).toContainText("oldest key");
  await expect(page.getByTestId("key-row").first()).toContainText("Active");
  await page.getByRole("link", { name: "Next page" }).click();
  await expect(keyRow(page, "oldest key")).toContainText("Expiring after rotation");
});

test("a refused create keeps Production, the label and the expiry, and then creates exactly that", async ({ page }) => {
  await signUp(page, uniqueEmail("keepvalues"));
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an API key" });
  await dialog.getByLabel("Label").fill("payments");
  await dialog.getByLabel(/Production/).check();
  await choose(page, dialog.getByLabel("Expires"), "On a date…");
  await dialog.getByLabel("Expiry date (UTC)").fill(yesterday());
  await dialog.getByRole("button", { name: "Create key" }).click();

  await expect(dialog.getByRole("alert")).toHaveText("The expiry date must be in the future.");
  await expect(dialog.getByLabel("Label")).toHaveValue("payments");
  await expect(dialog.getByLabel(/Production/)).toBeChecked();
  await expect(dialog.getByLabel("Expires")).toHaveText(/On a date…/);
  await expect(dialog.getByLabel("Expiry date (UTC)")).toHaveValue(yesterday());
  await expect(dialog.getByLabel("Expiry date (UTC)")).toBeFocused();

  await dialog.getByLabel("Expiry date (UTC)").fill(tomorrow());
  await dialog.getByRole("button", { name: "Create key" }).click();
  const secret = await saveNewSecret(page);
  expect(secret).toMatch(/^sk_prod_/);
  await expect(keyRow(page, "payments")).toContainText("Production");
  await expect(keyRow(page, "payments")).toContainText(/Expires (tomorrow|in [12] days?)/);
});

test("a refused rename keeps what was typed, and sign-up keeps the email", async ({ page }) => {
  const email = uniqueEmail("keeptyped");
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator("form").getByRole("alert")).toHaveText("Use at least 10 characters.");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Password")).toHaveValue("short");
  await page.getByLabel("Password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Create account" }).click();
  await finishSignUp(page, email, "correct horse battery staple");

  await createKey(page, "to rename");
  await page.getByRole("link", { name: "to rename" }).click();
  await page.getByRole("button", { name: "Rename “to rename”" }).click();
  await page.getByLabel("New label for “to rename”").fill("   ");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Give the key a label.")).toBeVisible();
  await expect(page.getByLabel("New label for “to rename”")).toHaveValue("   ");
  await expect(page.getByLabel("New label for “to rename”")).toBeFocused();
});

test("a key created outside the filters is shown, with a note, and the count stays right", async ({ page }) => {
  await signUp(page, uniqueEmail("pinned"));
  await createKey(page, "a prod key", { environment: "Production" });
  await choose(page, page.getByLabel("Environment"), "Production");
  await expect(page).toHaveURL(/env=prod/);
  await createKey(page, "a dev key");
  await expect(keyRow(page, "a dev key")).toContainText("Just created: outside your filters");
  await expect(page.getByTestId("key-count")).toHaveText(
    /^1 key match(es)? the filters, plus “a dev key”, just created, which does not\./,
  );
  await expect(page.getByTestId("key-row")).toHaveCount(2);
});

test("the secret dialog asks before a key is discarded, and keeps it when the user goes back", async ({ page }) => {
  await signUp(page, uniqueEmail("discard"));
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByRole("dialog").getByLabel("Label").fill("careful");
  await page.getByRole("dialog").getByRole("button", { name: "Create key" }).click();
  const reveal = page.getByRole("alertdialog");
  const secret = await reveal.getByTestId("new-secret").inputValue();

  await page.keyboard.press("Escape");
  await expect(page.getByRole("alertdialog", { name: "Discard this key without saving it?" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Go back to the key" })).toBeFocused();
  await page.getByRole("button", { name: "Go back to the key" }).click();
  await expect(reveal.getByTestId("new-secret")).toHaveValue(secret);

  await reveal.getByRole("button", { name: "Close" }).click();
  await page.getByRole("button", { name: "Discard the key" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Create key" })).toBeFocused();
  expect(await page.content()).not.toContain(secret);
});

test("the key page shows the rotation chain both ways, and the replacement's own creation", async ({ page }) => {
  await signUp(page, uniqueEmail("chain"));
  await createKey(page, "chained");
  const rotate = await rowAction(page, "chained", "Rotate");
  await rotate.getByLabel("Immediately").check();
  await rotate.getByRole("button", { name: "Rotate key" }).click();
  await expect(page.getByRole("alertdialog")).toContainText(
    "The old key stopped working just now. Deploy the new key at once",
  );
  await expect(page.getByRole("alertdialog")).not.toContainText("before the old one stops");
  await saveNewSecret(page);

  await page.getByLabel("Show revoked and expired").check();
  await expect(keyRow(page, "chained")).toHaveCount(2);
  // By status, not position: the list may still be settling its order right after the filter changes.
  const newer = keyRow(page, "chained").filter({ has: page.getByText("Active", { exact: true }) });
  const older = keyRow(page, "chained").filter({ has: page.getByText("Expired", { exact: true }) });
  await expect(newer).toHaveCount(1);
  await expect(older).toHaveCount(1);
  const newId = (await newer.getAttribute("data-key-id"))!;
  const oldId = (await older.getAttribute("data-key-id"))!;
  await newer.getByRole("link", { name: "chained" }).click();
  await expect(page.getByRole("link", { name: `“chained” ${oldId}` })).toHaveAttribute(
    "href",
    personalTeamUrl(`/keys/${oldId}`),
  );
  const activity = page.getByTestId("activity-row");
  await expect(activity).toHaveCount(1);
  await expect(activity.first()).toContainText(`Key created`);
  await expect(activity.first()).toContainText(`replacing ${oldId} (rotation)`);
  await page.getByRole("link", { name: `“chained” ${oldId}` }).click();
  await expect(page).toHaveURL(personalTeamUrl(`/keys/${oldId}`));
  await expect(page.getByRole("link", { name: `“chained” ${newId}` })).toBeVisible();
  await expect(page.getByRole("term").getByText("Expired", { exact: true })).toBeVisible();
});
