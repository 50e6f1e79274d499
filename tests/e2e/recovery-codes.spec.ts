// Recovery codes a person can keep (issue 35): copied, downloaded, printed,
// never broken across lines on a phone, replaced after a fresh sign-in, and a
// warning once few are left.
import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessibleAtBothWidths, signUp, uniqueEmail } from "./helpers";
import { codeFrom, enrolTwoFactor } from "./two-factor-helpers";
import { ageSessions, useRecoveryCodes } from "./e2e-database";

type PrintCounted = Window & { printCalls?: number };

/** Replaces the page's window.print with a counter: a headless browser has no print dialog to show. */
async function countPrints(page: Page) {
  await page.evaluate(() => {
    const counted = window as PrintCounted;
    counted.printCalls = 0;
    counted.print = () => {
      counted.printCalls = (counted.printCalls ?? 0) + 1;
    };
  });
  return () => page.evaluate(() => (window as PrintCounted).printCalls);
}

test("recovery codes can be copied, downloaded and printed, fit a phone, and are replaced by ten new ones after a fresh sign-in", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.setViewportSize({ width: 390, height: 900 });
  const email = uniqueEmail("recovery");
  await signUp(page, email);
  const { uri, codes } = await enrolTwoFactor(page);
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
  // The codes as shown this once (kept in the page's state: the scans resize and restyle, never reload).
  await page.setViewportSize({ width: 1280, height: 900 });
  await expectAccessibleAtBothWidths(page, "the recovery codes, shown once");

  await page.getByRole("button", { name: "Copy all" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join("\n"));

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download (.txt)" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("keyport-recovery-codes.txt");
  const text = await readFile((await download.path())!, "utf8");
  for (const code of codes) expect(text.split("\n")).toContain(code);

  // Print asks the browser's print dialog once...
  const prints = await countPrints(page);
  await page.getByRole("button", { name: "Print" }).click();
  expect(await prints()).toBe(1);
  // ...and the printed page holds the codes alone (app/globals.css, @media print): no header, navigation, title
  // or buttons. Control: on screen those are there.
  const chrome = [
    page.locator("header"),
    page.getByRole("navigation", { name: "Dashboard" }),
    page.getByRole("heading", { level: 1, name: "Two-factor sign-in" }),
    page.getByRole("button", { name: "Print" }),
  ];
  for (const part of chrome) await expect(part).toBeVisible();
  await page.emulateMedia({ media: "print" });
  await expect(page.getByTestId("recovery-codes")).toBeVisible();
  for (const item of await page.getByTestId("recovery-codes").getByRole("listitem").all()) {
    await expect(item).toBeVisible();
  }
  for (const part of chrome) await expect(part).toBeHidden();
  await page.emulateMedia({ media: "screen" });
  await expect(page.locator("header")).toBeVisible();

  // Few left: the account page says so, and links to where new ones are made.
  useRecoveryCodes(email, 3);
  await page.goto("/account");
  await expect(page.getByTestId("few-recovery-codes")).toContainText("Only 3 recovery codes left");
  await expectAccessibleAtBothWidths(page, "the account page, with only 3 recovery codes left");
  await page.getByRole("link", { name: "Make new recovery codes" }).click();
  await expect(page.getByText("3 of 10 recovery codes left")).toBeVisible();
  // Making new ones needs a fresh sign-in: on a session that last proved itself 11 minutes ago, the dialog asks
  // first (with two-factor on, for a code: a password alone will not do), and the codes come once it is answered.
  ageSessions(email);
  await page.getByRole("button", { name: "Make new recovery codes" }).click();
  const confirm = page.getByRole("dialog", { name: "Confirm it’s you" });
  await expect(confirm).toBeVisible();
  await expect(confirm.getByLabel("Password")).toHaveCount(0);
  // Control: nothing was made before the answer.
  await expect(page.getByTestId("recovery-codes")).toHaveCount(0);
  // One step ahead of the code that turned two-factor on: each code from the app is taken once.
  await confirm.getByLabel("Code from your app").fill(codeFrom(uri, 1));
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(confirm).toHaveCount(0);
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
