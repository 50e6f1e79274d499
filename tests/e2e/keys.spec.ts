import { expect, test } from "@playwright/test";
import {
  choose,
  createKey,
  expectAccessible,
  keyRow,
  PERSONAL_KEY_URL,
  personalTeamUrl,
  rowAction,
  saveNewSecret,
  signUp,
  uniqueEmail,
} from "./helpers";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

test("create, copy, rename, rotate, revoke and report a leaked key, with the activity log after each step", async ({
  page,
}) => {
  await signUp(page, uniqueEmail("keys"));
  await expectAccessible(page, "empty key list");

  // Create a development key; copying the secret is what lets the dialog finish.
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an API key" });
  await expect(dialog.getByLabel("Label")).toBeFocused();
  await expectAccessible(page, "create dialog");
  await dialog.getByLabel("Label").fill("dev service");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const reveal = page.getByRole("alertdialog", { name: "Save your new key “dev service”" });
  await expect(reveal.getByRole("button", { name: "Done" })).toBeDisabled();
  await expectAccessible(page, "secret dialog");
  const devSecret = await reveal.getByTestId("new-secret").inputValue();
  await reveal.getByRole("button", { name: "Copy" }).click();
  await expect(reveal.getByText("Copied to the clipboard.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(devSecret);
  await reveal.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(keyRow(page, "dev service")).toContainText(`${devSecret.slice(0, 11)}…${devSecret.slice(-4)}`);
  await expect(keyRow(page, "dev service")).toContainText("Development");
  await expect(keyRow(page, "dev service")).toContainText("Never expires");

  // The key works on the public API; a browser session does not stand in for it.
  const models = await page.request.get("/api/v1/models", { headers: { Authorization: `Bearer ${devSecret}` } });
  expect(models.status()).toBe(200);
  expect((await models.json()).object).toBe("list");
  expect((await page.request.get("/api/v1/models")).status()).toBe(401);

  // A production key, marked as such.
  const prodSecret = await createKey(page, "prod service", { environment: "Production", expires: "In 90 days" });
  expect(prodSecret.startsWith("sk_prod_")).toBe(true);
  await expect(keyRow(page, "prod service")).toContainText("Production");
  await expect(keyRow(page, "prod service")).toContainText(/Expires in (89|90) days/);

  // The secret is gone once the page is left.
  await page.reload();
  expect(await page.content()).not.toContain(devSecret);
  expect(await page.content()).not.toContain(prodSecret);
  await expectAccessible(page, "key list");

  // The key page, reached from the list; rename in place there.
  await keyRow(page, "dev service").getByRole("link", { name: "dev service" }).click();
  await expect(page).toHaveURL(PERSONAL_KEY_URL);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("dev service");
  await page.getByRole("button", { name: "Rename “dev service”" }).click();
  await page.getByLabel("New label for “dev service”").fill("dev renamed");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("dev renamed");
  await expect(page.getByRole("button", { name: "Rename “dev renamed”" })).toBeFocused();
  await expect(page.getByTestId("toast").filter({ hasText: "Renamed to “dev renamed”." })).toBeVisible();
  await page.getByRole("link", { name: "API keys" }).first().click();

  // Rotate the production key with a 1-hour grace period, from its row's menu.
  const rotate = await rowAction(page, "prod service", "Rotate");
  await expect(rotate.getByRole("button", { name: "Cancel" })).toBeFocused();
  await expectAccessible(page, "rotate dialog");
  await rotate.getByLabel("In 1 hour").check();
  await rotate.getByRole("button", { name: "Rotate key" }).click();
  const rotated = page.getByRole("alertdialog", { name: "Save your new key “prod service”" });
  await expect(rotated).toContainText("The old key keeps working until");
  const rotatedSecret = await saveNewSecret(page);
  const prodRows = keyRow(page, "prod service");
  await expect(prodRows).toHaveCount(2);
  const expiring = prodRows.filter({ hasText: "Expiring after rotation" });
  await expect(expiring).toContainText("Stops working in 1 hour");
  const replacementId = await prodRows.first().getAttribute("data-key-id");
  await expect(expiring.getByRole("link", { name: replacementId! })).toHaveAttribute(
    "href",
    personalTeamUrl(`/keys/${replacementId}`),
  );

  // Revoke the development key, with a reason. Revoked keys leave the default view.
  const revoke = await rowAction(page, "dev renamed", "Revoke");
  await expectAccessible(page, "revoke dialog");
  await revoke.getByLabel("Reason (optional)").fill("service retired");
  await revoke.getByRole("button", { name: "Revoke key" }).click();
  await expect(
    page.getByTestId("toast").filter({ hasText: "Revoked “dev renamed”. It stopped working just now." }),
  ).toBeVisible();
  await expect(keyRow(page, "dev renamed")).toHaveCount(0);
  await expect(page.getByTestId("key-count")).toContainText("Revoked and expired keys are hidden.");
  await page.getByLabel("Show revoked and expired").check();
  await expect(keyRow(page, "dev renamed")).toContainText("Revoked");
  // The very next API call with the revoked key fails.
  const afterRevoke = await page.request.get("/api/v1/models", { headers: { "X-API-Key": devSecret } });
  expect(afterRevoke.status()).toBe(401);
  expect((await afterRevoke.json()).error.code).toBe("revoked_api_key");

  // The rotated-in production key leaks.
  const leak = await rowAction(page, "prod service", "Report leaked");
  await leak.getByRole("button", { name: "Revoke and replace now" }).click();
  const replaced = page.getByRole("alertdialog", { name: "Save the replacement for “prod service”" });
  await expect(replaced.getByRole("link", { name: "leaked-key checklist" })).toHaveAttribute(
    "href",
    "/docs/managing-keys#leaked-key-checklist",
  );
  const replacementSecret = await saveNewSecret(page);
  expect(replacementSecret).not.toBe(rotatedSecret);
  await expect(prodRows).toHaveCount(3);
  await expect(prodRows.filter({ hasText: "Revoked" })).toHaveCount(1);
  await expect(prodRows.filter({ hasText: "Active" })).toHaveCount(1);
  await expect(prodRows.filter({ hasText: "Expiring after rotation" })).toHaveCount(1);

  // Filters apply on change.
  await choose(page, page.getByLabel("Status"), "Revoked");
  await expect(page).toHaveURL(/status=revoked/);
  await expect(page.getByTestId("key-row")).toHaveCount(2);
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page.getByTestId("key-row")).toHaveCount(2); // in use: the active and the expiring production keys

  // The activity log, newest first.
  await page.getByRole("link", { name: "Activity", exact: true }).first().click();
  await expect(page).toHaveURL(personalTeamUrl("/activity"));
  const events = page.getByTestId("activity-row");
  // One transaction writes the replacement's creation, then the leak report.
  await expect(events.nth(0)).toContainText("Key reported leaked");
  await expect(events.nth(1)).toContainText("Key created"); // the leak's replacement
  await expect(events.nth(1)).toContainText("(reported leaked)");
  await expect(events.nth(2)).toContainText("Key revoked");
  await expect(events.nth(2)).toContainText("Reason: service retired");
  await expect(events.nth(3)).toContainText("Key created"); // the rotation's replacement
  await expect(events.nth(4)).toContainText("Key rotated");
  await expect(events.nth(5)).toContainText("“dev service” → “dev renamed”");
  await expect(events.nth(6)).toContainText("Key created");
  await expect(events.nth(7)).toContainText("Key created");
  await expect(events).toHaveCount(8);
  await expect(events.first()).toContainText(/From (127\.0\.0\.1|::1) ·/);
  await expect(page.getByText("::ffff:")).toHaveCount(0);
  await expectAccessible(page, "activity page");
  for (const secret of [devSecret, prodSecret, rotatedSecret, replacementSecret]) {
    expect(await page.content()).not.toContain(secret);
  }
  // The sign-in is the account's own event: on the account page, not in the team's log.
  await expect(events.filter({ hasText: "Signed in" })).toHaveCount(0);
  await page.getByRole("link", { name: "Account page" }).click();
  await expect(page).toHaveURL("/account#activity-heading");
  const accountEvents = page.getByRole("region", { name: "Account activity" }).getByTestId("activity-row");
  await expect(accountEvents.filter({ hasText: "Signed in" })).toHaveCount(1);
  await expect(accountEvents.filter({ hasText: "Key created" })).toHaveCount(0);
});
