// Team policies in the browser: an owner sets them on the team's settings
// page (a bad lifetime refused at its field, nothing stored), and a developer
// then sees each one beside the control it limits in the key form: production
// no longer offered, "Never" gone and the team's last allowed day suggested.
import { expect, test } from "@playwright/test";
import { e2eAdmin, e2eTeam } from "./e2e-admin";
import { choose, expectAccessibleAtBothWidths, keyRow, saveNewSecret, signUp, uniqueEmail } from "./helpers";

test("an owner sets the policies; a developer's key form shows them and keeps to them", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const [ownerEmail, developerEmail] = [uniqueEmail("policy-owner"), uniqueEmail("policy-developer")];
  await signUp(page, ownerEmail);
  const developerContext = await browser.newContext();
  const developer = await developerContext.newPage();
  await signUp(developer, developerEmail);
  const slug = await e2eTeam("Policies", ownerEmail, [[developerEmail, "developer"]]);

  // Before any policy, the developer's form offers production keys and keys that never expire (the control).
  await developer.goto(`/dashboard/${slug}`);
  await developer.getByRole("button", { name: "Create key" }).click();
  let dialog = developer.getByRole("dialog", { name: "Create an API key" });
  await expect(dialog.getByLabel(/Production/)).toBeEnabled();
  await expect(dialog.getByTestId("production-policy")).toHaveCount(0);
  await dialog.getByLabel("Expires").click();
  await expect(developer.getByRole("option", { name: "Never", exact: true })).toBeVisible();
  await developer.keyboard.press("Escape");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  // Nor does a developer get the settings link.
  await expect(
    developer.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Settings" }),
  ).toHaveCount(0);

  // The owner opens the settings from the dashboard's links.
  await page.goto(`/dashboard/${slug}`);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Settings of Policies");
  await expectAccessibleAtBothWidths(page, "a team's settings");
  const devLifetime = page.getByLabel("Maximum lifetime of development keys, in days");
  await devLifetime.fill("366");
  await page.getByRole("button", { name: "Save policies" }).click();
  await expect(devLifetime).toHaveAccessibleDescription(/from 7 to 365/);
  expect(await e2eAdmin(["team:policy", "--team", slug])).toMatchObject({ max_lifetime_days_dev: null });

  await choose(page, page.getByLabel("Who creates production keys"), "Admins only");
  await devLifetime.fill("14");
  await page.getByRole("button", { name: "Save policies" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toHaveText(/Saved the team's policies/);
  expect(await e2eAdmin(["team:policy", "--team", slug])).toMatchObject({
    production_keys: "admins",
    max_lifetime_days_dev: 14,
    max_lifetime_days_prod: null,
  });

  // The developer's form now says both, beside what they limit.
  await developer.reload();
  await developer.getByRole("button", { name: "Create key" }).click();
  dialog = developer.getByRole("dialog", { name: "Create an API key" });
  await expect(dialog.getByLabel(/Production/)).toBeDisabled();
  await expect(dialog.getByTestId("production-policy")).toHaveText(/only admins and owners create production keys/);
  const latest = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  await expect(dialog.getByTestId("lifetime-policy")).toHaveText(
    `This team's policy: development keys expire within 14 days, on ${latest} (UTC) at the latest.`,
  );
  await expect(dialog.getByLabel("Expiry date (UTC)")).toHaveValue(latest);
  await dialog.getByLabel("Expires").click();
  await expect(developer.getByRole("option", { name: "In 30 days", exact: true })).toHaveCount(0);
  await expect(developer.getByRole("option", { name: "Never", exact: true })).toHaveCount(0);
  await developer.keyboard.press("Escape");
  await dialog.getByLabel("Label").fill("within the policy");
  await dialog.getByRole("button", { name: "Create key" }).click();
  expect(await saveNewSecret(developer)).toMatch(/^sk_dev_/);
  await expect(keyRow(developer, "within the policy")).toContainText("Expires");
  await expect(keyRow(developer, "within the policy")).not.toContainText("Never expires");

  // A production key of the developer's from before the policy (the operator makes it past the policy here): they
  // may not rotate it, so it offers no Rotate, and "This key leaked" says it makes no replacement for them.
  await e2eAdmin([
    "key:create",
    "--team",
    slug,
    "--email",
    developerEmail,
    "--env",
    "prod",
    "--label",
    "prod of the developer",
    "--expires-in-days",
    "20",
    "--override-policy",
  ]);
  await developer.goto(`/dashboard/${slug}`);
  await developer.getByRole("button", { name: "Actions for “prod of the developer”" }).click();
  await expect(developer.getByRole("menuitem", { name: "This key leaked: “prod of the developer”" })).toBeVisible();
  await expect(developer.getByRole("menuitem", { name: "Rotate “prod of the developer”" })).toHaveCount(0);
  await developer.keyboard.press("Escape");
  // Their development key still offers it (the control).
  await developer.getByRole("button", { name: "Actions for “within the policy”" }).click();
  await expect(developer.getByRole("menuitem", { name: "Rotate “within the policy”" })).toBeVisible();
  await developer.keyboard.press("Escape");
  await keyRow(developer, "prod of the developer").getByRole("link", { name: "prod of the developer" }).click();
  await expect(developer.getByTestId("rotation-policy")).toContainText("lets only admins and owners rotate");
  await expect(developer.getByRole("button", { name: /^Rotate/ })).toHaveCount(0);
  await developer.getByRole("button", { name: /^This key leaked/ }).click();
  const leak = developer.getByRole("alertdialog", { name: "Report “prod of the developer” leaked" });
  await expect(leak).toContainText("No replacement is made for you");
  await expect(leak.getByRole("button", { name: "Revoke now" })).toBeVisible();
  await leak.getByRole("button", { name: "Cancel" }).click();

  // The owner's activity names the change.
  await page.goto(`/dashboard/${slug}/activity`);
  await expect(page.getByTestId("activity-row").filter({ hasText: "Team policy changed" })).toContainText(
    "who creates production keys: developers → admins; development key lifetime: no maximum → 14 days",
  );
  await developerContext.close();
});
