// Minor points of a new user's walk (issue 35), as the user meets them: the
// password change, setting up two-factor, turning it off, and a key reported
// leaked while its rotation's grace ran.
import { readFile } from "node:fs/promises";
import http from "node:http";
import { expect, test } from "@playwright/test";
import { createKey, PASSWORD, rowAction, saveNewSecret, signIn, signUp, uniqueEmail } from "./helpers";
import { codeFrom, scanQrCode } from "./two-factor-helpers";

test("the current password is refused as the new one, the other browser is told the password changed, and the account's activity says so in words", async ({
  page,
  browser,
}) => {
  const email = uniqueEmail("samepass");
  await signUp(page, email);
  const other = await (await browser.newContext()).newPage();
  await signIn(other, email);

  await page.goto("/account");
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("That is your current password: choose a new one.").first()).toBeVisible();
  // Nothing changed: the other browser is still signed in.
  await other.goto("/account");
  await expect(other).toHaveURL(/\/account$/);

  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByLabel("New password").fill("an entirely new passphrase");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText(/Password changed\. 1 other session was signed out\./)).toBeVisible();
  await other.goto("/account");
  await expect(other).toHaveURL(/\/sign-in/);
  await expect(other.getByRole("status")).toContainText("The account’s password was changed from another browser");
  await expect(other.getByRole("status")).not.toContainText("End all other sessions");
  await other.context().close();

  // The account's activity says what happened in words (lib/activity-events.ts), never as the audit's codes.
  await page.goto("/account");
  const rows = page.getByTestId("activity-row");
  await expect(rows.filter({ hasText: /^Password changed/ })).toHaveCount(1);
  // Two sign-ins: the account's first session, then the other browser.
  await expect(rows.filter({ hasText: /^Signed in/ })).toHaveCount(2);
  for (const text of await rows.allInnerTexts()) expect(text).not.toMatch(/\bauth\.[a-z_]+/);
  expect(await page.locator("main").innerText()).not.toContain("auth.password_changed");
});

test("setting up two-factor asks for the app's 6-digit code, and turning it off says it is off", async ({ page }) => {
  await signUp(page, uniqueEmail("tfa-words"));
  await page.goto("/account/two-factor");
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  const uri = await scanQrCode(page);
  const field = page.getByLabel("Code from the app");
  for (const [code, message] of [
    ["", "Enter the 6-digit code your authenticator app shows."],
    ["123", "A code is 6 digits: enter the one your app shows now."],
    ["abcdef", "A code is 6 digits: enter the one your app shows now."],
  ] as const) {
    await field.fill(code);
    await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
    await expect(page.getByText(message).first()).toBeVisible();
    await expect(page.getByText("or a recovery code")).toHaveCount(0);
  }
  await field.fill(codeFrom(uri));
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await expect(page.getByTestId("recovery-codes").getByRole("listitem")).toHaveCount(10);

  await page.reload();
  await page.getByLabel("Code to turn it off").fill(codeFrom(uri, 1));
  await page.getByRole("button", { name: "Turn off two-factor sign-in" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Two-factor sign-in is off." })).toBeVisible();
  await expect(page.getByRole("button", { name: "Set up two-factor sign-in" })).toBeVisible();
});

test("a key reported leaked during its rotation's grace names the replacement that goes on working", async ({
  page,
  browser,
}) => {
  await signUp(page, uniqueEmail("grace-report"));
  const old = await createKey(page, "search worker");
  const rotate = await rowAction(page, "search worker", "Rotate");
  await rotate.getByLabel("In 24 hours").check();
  await rotate.getByRole("button", { name: "Rotate key" }).click();
  await saveNewSecret(page);

  const stranger = await (await browser.newContext()).newPage();
  await stranger.goto("/report-a-key");
  await stranger.getByLabel("The key you found").fill(`SEARCH_KEY=${old}`);
  await stranger.getByRole("button", { name: "Report this key" }).click();
  await expect(stranger.getByRole("status")).toContainText("We read 1 Keyport key");
  await stranger.context().close();

  const notice = page.getByTestId("reported-leaks");
  await expect(async () => {
    await page.reload();
    await expect(notice).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(notice.getByTestId("reported-leak-replacement")).toContainText(
    "its replacement, search worker, keeps working",
  );
  await expect(notice).not.toContainText("No replacement was made");
});

test("a client reads as IPv4 and its user agent as UTF-8, on the key's page and in its CSV", async ({ page }) => {
  await signUp(page, uniqueEmail("utf8-agent"));
  const secret = await createKey(page, "agent test");
  // Sent over IPv4 to the dual-stack socket (which sees ::ffff:127.0.0.1), with a user agent in UTF-8 bytes, as
  // Node sends a header: one byte per character.
  const port = Number(new URL(page.url()).port);
  const agent = "Tool/東京 (Zürich)";
  const status = await new Promise<number>((resolve, reject) => {
    const request = http.get(
      {
        host: "127.0.0.1",
        port,
        path: "/api/v1/models",
        headers: { Authorization: `Bearer ${secret}`, "User-Agent": Buffer.from(agent).toString("latin1") },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on("error", reject);
  });
  expect(status).toBe(200);

  await page.getByRole("link", { name: "agent test" }).click();
  await expect(page).toHaveURL(/\/keys\/key_[0-9A-Za-z]{16}$/);
  const log = page.locator("#requests");
  await expect(async () => {
    await page.reload();
    await expect(log).toContainText(agent, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(log).toContainText("127.0.0.1");
  await expect(log).not.toContainText("::ffff:");
  await expect(log).not.toContainText("æ");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  const csv = await readFile((await download.path())!, "utf8");
  expect(csv).toContain(`"127.0.0.1","${agent}"`);
  expect(csv).not.toContain("::ffff:");
});
