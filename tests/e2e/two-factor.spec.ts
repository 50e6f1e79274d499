// Two-factor sign-in through the browser: enrol by scanning the QR code (the
// test decodes the image itself, as a phone would), then sign in with the
// password and a code, and once with a recovery code, which then stops working.
import { expect, test, type Page } from "@playwright/test";
import { PASSWORD, personalTeamUrl, signOut, signUp, uniqueEmail } from "./helpers";
import { codeFrom, scanQrCode } from "./two-factor-helpers";

async function signInWithPassword(page: Page, email: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/sign-in\/two-factor$/);
  await expect(page.getByRole("heading", { name: "Two-factor sign-in" })).toBeVisible();
}

async function enterCode(page: Page, code: string) {
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("enrol by QR code, then sign in with the password and a code, and once with a recovery code", async ({ page }) => {
  const email = uniqueEmail("two-factor");
  await signUp(page, email);
  await page.goto("/account/two-factor");
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  const uri = await scanQrCode(page);
  expect(uri).toMatch(/^otpauth:\/\/totp\/Keyport:/);
  expect(new URL(uri).searchParams.get("secret")).toBe(await page.getByTestId("totp-secret").textContent());

  // A wrong code does not turn it on.
  await page.getByLabel("Code from the app").fill(codeFrom(uri, 5));
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await expect(page.locator("form [role=alert]")).toContainText("That code does not match");
  await page.getByLabel("Code from the app").fill(codeFrom(uri));
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  // allTextContents() does not wait: wait for the list the action's answer renders first.
  const items = page.getByTestId("recovery-codes").getByRole("listitem");
  await expect(items).toHaveCount(10);
  const codes = await items.allTextContents();
  for (const code of codes) expect(code).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/);
  await page.reload();
  await expect(page.getByText("On.")).toBeVisible();
  await expect(page.getByText("10 of 10 recovery codes left")).toBeVisible();

  await page.goto("/dashboard");
  await signOut(page);

  // The password alone is not a session: the dashboard still sends the browser to sign in.
  await signInWithPassword(page, email);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);

  await signInWithPassword(page, email);
  await enterCode(page, "000000");
  await expect(page.locator("form [role=alert]")).toContainText("That code is not right");
  // The enrolment used this step's code; the app's next one is accepted (one step of drift).
  await enterCode(page, codeFrom(uri, 1));
  await expect(page).toHaveURL(personalTeamUrl());
  await signOut(page);

  await signInWithPassword(page, email);
  await enterCode(page, codes[0]!.toLowerCase());
  await expect(page).toHaveURL(personalTeamUrl());
  await signOut(page);

  // The same recovery code a second time: refused.
  await signInWithPassword(page, email);
  await enterCode(page, codes[0]!);
  await expect(page.locator("form [role=alert]")).toContainText("That code is not right, or was used already");
  await expect(page).toHaveURL(/\/sign-in\/two-factor$/);
});
