// What usage tells a user beside the charts: a key tried after it was
// revoked stands out, a rotation's progress moves as traffic switches, and a
// key is offered the narrower scopes it really used.
import { expect, test, type Page } from "@playwright/test";
import { createKey, keyRow, rowAction, saveNewSecret, signUp, uniqueEmail } from "./helpers";

const models = (page: Page, key: string) =>
  page.request.get("/api/v1/models", { headers: { Authorization: `Bearer ${key}`, "User-Agent": "e2e-worker/1.0" } });

/** By its link's address: a click right after a create can race the list's own URL update. */
async function openKeyPage(page: Page, label: string) {
  await page.goto((await keyRow(page, label).getByRole("link", { name: label }).getAttribute("href"))!);
}

/**
 * The usage buffer flushes every second: reload until the page shows what was
 * sent. The check gets an `expect` that waits 2 seconds, not the suite's 15: a
 * page loaded before the flush never changes, and the next reload is the one
 * that can pass.
 */
async function reloadUntil(page: Page, check: (quick: typeof expect) => Promise<void>) {
  const quick = expect.configure({ timeout: 2_000 });
  await expect(async () => {
    await page.reload();
    await check(quick);
  }).toPass({ timeout: 60_000 });
}

test("a revoked key that is tried again stands out on its page and in the list, linked to its log", async ({
  page,
}) => {
  await signUp(page, uniqueEmail("after-revoke"));
  const secret = await createKey(page, "old deploy");
  expect((await models(page, secret)).status()).toBe(200);
  const revoke = await rowAction(page, "old deploy", "Revoke");
  await revoke.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByTestId("toast").first()).toContainText("Revoked");
  for (let i = 0; i < 2; i++) expect((await models(page, secret)).status()).toBe(401);

  await page.goto("/dashboard?inactive=1");
  await reloadUntil(page, async (expect) => {
    await expect(keyRow(page, "old deploy").getByTestId("key-usage-note")).toContainText(
      /^Used 2 times after it was revoked, last from .+ at \d+ \w+ \d{4}, \d\d:\d\d UTC$/,
    );
  });
  await openKeyPage(page, "old deploy");
  const notice = page.getByTestId("use-after-end");
  await expect(notice).toContainText("Used 2 times after it was revoked");
  await notice.getByRole("link", { name: "See the request log" }).click();
  await expect(page).toHaveURL(/#requests$/);
  await expect(page.locator("#requests")).toBeVisible();
});

test("the rotation meter moves as traffic switches to the new key, and the old key can be retired from it", async ({
  page,
}) => {
  await signUp(page, uniqueEmail("rotation-meter"));
  const old = await createKey(page, "billing worker");
  const rotate = await rowAction(page, "billing worker", "Rotate");
  await rotate.getByLabel("In 7 days").check();
  await rotate.getByRole("button", { name: "Rotate key" }).click();
  const fresh = await saveNewSecret(page);
  for (let i = 0; i < 3; i++) await models(page, old);

  await page.goto("/dashboard");
  const oldRow = page.getByTestId("key-row").filter({ hasText: "Expiring after rotation" });
  await reloadUntil(page, async (expect) => {
    await expect(oldRow.getByTestId("key-usage-note")).toHaveText("100% of the last hour's traffic still on this key");
  });
  await page.goto((await oldRow.getByRole("link", { name: "billing worker" }).getAttribute("href"))!);
  const meter = page.getByTestId("rotation-meter");
  // The list's "100%" holds from the first flushed request; the count needs all three.
  await reloadUntil(page, async (expect) => {
    await expect(meter).toContainText("100% of the last hour's requests still use this key (3 of 3)");
  });
  await expect(meter).toContainText("e2e-worker/1.0 · 3 requests");

  for (let i = 0; i < 9; i++) await models(page, fresh);
  await reloadUntil(page, async (expect) => {
    await expect(meter).toContainText("25% of the last hour's requests still use this key (3 of 12)");
  });
  await expect(meter.getByRole("meter")).toHaveJSProperty("value", 0.25);

  await meter.getByRole("button", { name: "Retire the old key now" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByTestId("toast").first()).toContainText("Revoked");
  expect((await models(page, old)).status()).toBe(401);
  expect((await models(page, fresh)).status()).toBe(200);
});

test("a key that only read the catalog is offered catalog:read, applied in one click and audited", async ({ page }) => {
  await signUp(page, uniqueEmail("narrow"));
  const secret = await createKey(page, "dashboard reader");
  for (let i = 0; i < 2; i++) expect((await models(page, secret)).status()).toBe(200);
  await openKeyPage(page, "dashboard reader");
  const suggestion = page.getByTestId("scope-suggestion");
  await reloadUntil(page, async (expect) => {
    await expect(suggestion).toContainText("only needed catalog:read");
  });
  await suggestion.getByRole("button", { name: "Narrow to this scope" }).click();
  await expect(page.getByTestId("toast").first()).toContainText("Narrowed “dashboard reader” to catalog:read.");
  await expect(page.getByTestId("scope-suggestion")).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Access" })).toContainText("catalog:read");
  const chat = await page.request.post("/api/v1/chat/completions", {
    headers: { Authorization: `Bearer ${secret}` },
    data: { model: "keyport-sandbox-mini", messages: [{ role: "user", content: "Hi" }] },
  });
  expect((await chat.json()).error.code).toBe("insufficient_scope");
  await page.reload();
  await expect(page.getByTestId("activity-row").filter({ hasText: "Key access changed" })).toContainText(
    "Scopes: all → catalog:read",
  );
});
