// A key found in public, handed in through the report form by a stranger
// with JavaScript off: it stops working at once, and its owner sees it on the
// dashboard (with where it was found) until they dismiss the notice.
import { expect, test } from "@playwright/test";
import { generateApiKey } from "../../lib/keys/format";
import { createKey, keyRow, saveNewSecret, signUp, uniqueEmail } from "./helpers";

test("a stranger reports a key with JavaScript off; the owner sees it revoked and dismisses the notice", async ({
  page,
  browser,
}) => {
  await signUp(page, uniqueEmail("reported"));
  const secret = await createKey(page, "build server");
  const headers = { Authorization: `Bearer ${secret}` };
  expect((await page.request.get("/api/v1/models", { headers })).status()).toBe(200);

  const stranger = await browser.newContext({ javaScriptEnabled: false });
  const form = await stranger.newPage();
  await form.goto("/report-a-key");
  await form.getByLabel("The key you found").fill(secret);
  await form.getByLabel("Where you found it (optional)").fill("https://gist.example/abc123");
  await form.getByRole("button", { name: "Report this key" }).click();
  await expect(form.getByRole("status")).toContainText("If that was a live Keyport key, it no longer works");
  // A made-up key gets the very same page.
  await form.goto("/report-a-key");
  await form.getByLabel("The key you found").fill(generateApiKey("prod"));
  await form.getByRole("button", { name: "Report this key" }).click();
  await expect(form.getByRole("status")).toContainText("If that was a live Keyport key, it no longer works");
  await stranger.close();

  // The revocation runs once the answer is sent: the key is refused from then on.
  await expect.poll(async () => (await page.request.get("/api/v1/models", { headers })).status()).toBe(401);

  await page.goto("/dashboard");
  const notice = page.getByTestId("reported-leaks");
  await expect(notice).toContainText("A key was found in public and revoked");
  await expect(notice).toContainText("reported through the public report form");
  await expect(notice).toContainText("Found at https://gist.example/abc123");
  await notice.getByRole("button", { name: "Dismiss the notice about “build server”" }).click();
  await expect(page.getByTestId("reported-leaks")).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("reported-leaks")).toHaveCount(0);

  await page.goto("/dashboard/activity");
  await expect(page.getByTestId("activity-row").first()).toContainText("Reported through the public report form");
  await expect(page.getByTestId("activity-row").first()).toContainText(
    "By Keyport, on a report through the public form",
  );
});

test("a decoy key made in the dashboard never works, and its use shows on the dashboard and in the activity", async ({
  page,
}) => {
  await signUp(page, uniqueEmail("decoy"));
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an API key" });
  await dialog.getByLabel("Label").fill("ci decoy");
  await dialog.getByLabel(/Decoy key/).check();
  await dialog.getByRole("button", { name: "Create key" }).click();
  const secret = await saveNewSecret(page);

  const response = await page.request.get("/api/v1/models", {
    headers: { Authorization: `Bearer ${secret}`, "User-Agent": "attacker/1.0" },
  });
  expect(response.status()).toBe(401);
  expect((await response.json()).error.code).toBe("invalid_api_key");

  const row = keyRow(page, "ci decoy");
  await expect(async () => {
    await page.goto("/dashboard");
    await expect(row).toContainText("Decoy used once", { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(row).toContainText("Decoy");
  await page.goto("/dashboard/activity");
  await expect(page.getByTestId("activity-row").first()).toContainText("Decoy key used");
  await expect(page.getByTestId("activity-row").first()).toContainText("list_models");
});
