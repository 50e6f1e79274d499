// Recovery codes a person can keep (issue 35): copied, downloaded, never
// broken across lines on a phone, replaced after a fresh sign-in, and a
// warning once few are left.
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";
import { enrolTwoFactor } from "./two-factor-helpers";
import { useRecoveryCodes } from "./e2e-database";

test("recovery codes can be copied and downloaded, fit a phone, and are replaced by ten new ones", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.setViewportSize({ width: 390, height: 900 });
  const email = uniqueEmail("recovery");
  await signUp(page, email);
  const { codes } = await enrolTwoFactor(page);
  expect(new Set(codes).size).toBe(10);

  // At 390 px no code breaks across two lines: each item is one line high, like the first.
  const heights = await page
    .getByTestId("recovery-codes")
    .getByRole("listitem")
    .evaluateAll((items) => items.map((item) => item.getBoundingClientRect().height));
  expect(Math.max(...heights)).toBe(Math.min(...heights));
  const lineHeight = await page
    .getByTestId("recovery-codes")
    .getByRole("listitem")
    .first()
    .evaluate((item) => parseFloat(getComputedStyle(item).lineHeight));
  expect(heights[0]!).toBeLessThan(2 * lineHeight);

  await page.getByRole("button", { name: "Copy all" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join("\n"));

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download (.txt)" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("keyport-recovery-codes.txt");
  const text = await readFile((await download.path())!, "utf8");
  for (const code of codes) expect(text.split("\n")).toContain(code);

  // Few left: the account page says so, and links to where new ones are made.
  useRecoveryCodes(email, 3);
  await page.goto("/account");
  await expect(page.getByTestId("few-recovery-codes")).toContainText("Only 3 recovery codes left");
  await page.getByRole("link", { name: "Make new recovery codes" }).click();
  await expect(page.getByText("3 of 10 recovery codes left")).toBeVisible();
  await page.getByRole("button", { name: "Make new recovery codes" }).click();
  const fresh = page.getByTestId("recovery-codes").getByRole("listitem");
  await expect(fresh).toHaveCount(10);
  await expect(page.getByText("New recovery codes made.")).toBeVisible();
  const replaced = await fresh.allTextContents();
  expect(replaced.filter((code) => codes.includes(code))).toEqual([]);
  await page.reload();
  await expect(page.getByText("10 of 10 recovery codes left")).toBeVisible();
  // Control: the warning is gone now that there are enough.
  await expect(page.getByTestId("few-recovery-codes")).toHaveCount(0);

  await page.goto("/account");
  await expect(page.getByTestId("activity-row").first()).toContainText("Recovery codes replaced");
});
