// A fresh sign-in before a production key change, in the browser: a session
// that last proved itself over 10 minutes ago is asked for the password in a
// dialog before a rotation, and the rotation then completes with what was chosen.
import { expect, test } from "@playwright/test";
import {
  createKey,
  expectAccessibleAtBothWidths,
  keyRow,
  rowAction,
  saveNewSecret,
  signIn,
  signOut,
  signUp,
  uniqueEmail,
  PASSWORD,
} from "./helpers";
import { ageSessions, failedSignIns } from "./e2e-database";
import { enrolTwoFactor } from "./two-factor-helpers";

test("a production key rotation on a stale session asks for the password first, then completes", async ({ page }) => {
  const email = uniqueEmail("step-up");
  await signUp(page, email);
  // Just signed in: no question.
  await createKey(page, "payments prod", { environment: "Production" });
  ageSessions(email);

  const rotate = await rowAction(page, "payments prod", "Rotate");
  await rotate.getByLabel("In 24 hours").check();
  await rotate.getByRole("button", { name: "Rotate key" }).click();
  const confirm = page.getByRole("dialog", { name: "Confirm it’s you" });
  await expect(confirm).toBeVisible();
  await confirm.getByLabel("Password").fill("not my password");
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(confirm.getByRole("alert")).toHaveText(
    "That password is not right. 4 more wrong answers sign this session out.",
  );
  // The dialog open over the rotation, with its error: light and dark, at 1280 and 390 px.
  await expectAccessibleAtBothWidths(page, "the fresh sign-in dialog with a wrong answer");
  await confirm.getByLabel("Password").fill(PASSWORD);
  await confirm.getByRole("button", { name: "Confirm" }).click();

  // The same rotation, with the grace period chosen before the question, went through.
  await saveNewSecret(page);
  await expect(keyRow(page, "payments prod").filter({ hasText: "Expiring after rotation" })).toHaveCount(1);
});

test("Escape in the fresh sign-in dialog goes back to the plain revoke dialog, focused on its button, and revokes nothing", async ({
  page,
}) => {
  const email = uniqueEmail("step-up-escape");
  await signUp(page, email);
  await createKey(page, "orders prod", { environment: "Production" });
  ageSessions(email);
  const revoke = await rowAction(page, "orders prod", "Revoke");
  await revoke.getByRole("button", { name: "Revoke key" }).click();
  const confirm = page.getByRole("dialog", { name: "Confirm it’s you" });
  await expect(confirm).toBeVisible();
  // Control: while the question is open, the revoke dialog behind it says why it was asked. (That dialog is hidden
  // from the accessibility tree while the question is open, so the message is found by its text.)
  const refusal = page.getByText("Confirm it’s you: changes to production keys need");
  await expect(refusal).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(confirm).toHaveCount(0);
  // The revoke dialog is still there as it was before the click: no message, its button focused (not the page's
  // body), and the key still works.
  await expect(revoke).toBeVisible();
  await expect(refusal).toHaveCount(0);
  await expect(revoke.getByRole("alert")).toHaveCount(0);
  await expect(revoke.getByRole("button", { name: "Revoke key" })).toBeFocused();
  await expect(keyRow(page, "orders prod")).toContainText("Active");
  // Trying again asks again, and goes through.
  await revoke.getByRole("button", { name: "Revoke key" }).click();
  await confirm.getByLabel("Password").fill(PASSWORD);
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(keyRow(page, "orders prod")).toHaveCount(0);
});

test("someone flooding the owner's email locks other browsers, not the owner's revoke or next sign-in", async ({
  page,
  browser,
}) => {
  const email = uniqueEmail("flooded");
  await signUp(page, email);
  await createKey(page, "billing prod", { environment: "Production" });
  ageSessions(email);
  failedSignIns(email, 11);

  // Control: a browser that never signed in to this email is locked out, even with the right password.
  const stranger = await (await browser.newContext()).newPage();
  await stranger.goto("/sign-in");
  await stranger.getByLabel("Email").fill(email);
  await stranger.getByLabel("Password").fill(PASSWORD);
  await stranger.getByRole("button", { name: "Sign in" }).click();
  await expect(stranger.locator("form").getByRole("alert")).toContainText("Too many attempts. Try again at");

  // The owner, signed in, revokes the production key: the dialog takes the right password.
  const revoke = await rowAction(page, "billing prod", "Revoke");
  await revoke.getByRole("button", { name: "Revoke key" }).click();
  const confirm = page.getByRole("dialog", { name: "Confirm it’s you" });
  await confirm.getByLabel("Password").fill(PASSWORD);
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Revoked “billing prod”." })).toBeVisible();

  // And signs in again from this browser, which holds a device cookie from signing in before.
  await signOut(page);
  await signIn(page, email);
});

test("with two-factor on, the dialog asks for a code only, and five wrong answers sign the session out", async ({
  page,
}) => {
  const email = uniqueEmail("step-up-2fa");
  await signUp(page, email);
  await enrolTwoFactor(page);
  await page.goto("/dashboard");
  await createKey(page, "ledger prod", { environment: "Production" });
  ageSessions(email);

  const revoke = await rowAction(page, "ledger prod", "Revoke");
  await revoke.getByRole("button", { name: "Revoke key" }).click();
  const confirm = page.getByRole("dialog", { name: "Confirm it’s you" });
  await expect(confirm.getByLabel("Code from your app")).toBeVisible();
  await expect(confirm.getByLabel("Password")).toHaveCount(0);
  for (let i = 1; i <= 4; i++) {
    await confirm.getByLabel("Code from your app").fill(String(100000 + i));
    await confirm.getByRole("button", { name: "Confirm" }).click();
    const left = 5 - i;
    await expect(confirm.getByRole("alert")).toContainText(
      left === 1
        ? "One more wrong answer signs this session out."
        : `${left} more wrong answers sign this session out.`,
    );
  }
  await confirm.getByLabel("Code from your app").fill("100009");
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(confirm.getByRole("alert")).toContainText("Five wrong answers: this session is signed out");

  // The session is over: the right code now changes nothing, and the sign-in page says why.
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByRole("status")).toContainText("answered wrongly five times");
});
