// The activity in words (issue 35): each entry a sentence, no stray "·",
// renaming to the same name logs nothing, and the log filters by kind of event
// and by key and downloads as CSV with those filters.
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { choose, createKey, personalTeamPath, rowAction, signUp, uniqueEmail } from "./helpers";

test("the activity reads as sentences, filters by kind and key, and downloads as CSV", async ({ page }) => {
  await signUp(page, uniqueEmail("activity"));
  await createKey(page, "first key");
  await createKey(page, "second key");
  // Renamed once, then to the same name: the second changes nothing and is not logged.
  await page.getByRole("link", { name: "first key" }).click();
  for (const [from, to] of [
    ["first key", "renamed key"],
    ["renamed key", "renamed key"],
  ]) {
    await page.getByRole("button", { name: `Rename “${from}”` }).click();
    await page.getByLabel(`New label for “${from}”`).fill(to!);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(to!);
  }
  await expect(page.getByText("“renamed key” already has that name: nothing changed.").first()).toBeVisible();
  const base = await personalTeamPath(page);
  await page.goto(base);
  const revoke = await rowAction(page, "second key", "Revoke");
  await revoke.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);

  await page.goto(`${base}/activity`);
  const rows = page.getByTestId("activity-row");
  await expect(rows.first()).toContainText("Key revoked");
  // No dangling separator after the key of a revocation without a reason.
  expect((await rows.first().locator("p").first().innerText()).trim()).toMatch(/^key_[0-9A-Za-z]{16}$/);
  await expect(rows.filter({ hasText: "Key renamed" })).toHaveCount(1);
  for (const text of await rows.allInnerTexts()) expect(text).not.toMatch(/\b(key|team|auth)\.[a-z_]+/);

  await choose(page, page.getByLabel("Kind", { exact: true }), "Keys");
  await expect(page).toHaveURL(/kind=keys/);
  await expect(rows).toHaveCount(4);
  await choose(page, page.getByLabel("Kind", { exact: true }), "Production key requests");
  await expect(page.getByText("No activity matches these filters.")).toBeVisible();
  await expect(rows).toHaveCount(0);
  await choose(page, page.getByLabel("Kind", { exact: true }), "Keys");
  await expect(rows).toHaveCount(4);
  await page.getByLabel("Key", { exact: true }).click();
  await page.getByRole("option", { name: /^renamed key \(key_/ }).click();
  await expect(page).toHaveURL(/key=key_/);
  await expect(rows).toHaveCount(2);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download these entries as CSV" }).click(),
  ]);
  const csv = (await readFile((await download.path())!, "utf8")).trimEnd().split("\r\n");
  expect(csv[0]).toBe('"time","event","action","key_id","by","count","details","ip","user_agent"');
  expect(csv.slice(1).map((line) => line.split(",")[1])).toEqual(['"Key renamed"', '"Key created"']);
});
