// A fresh sign-in before a production key change, in the browser: a session
// that last proved itself over 10 minutes ago is asked for the password in a
// dialog before a rotation, and the rotation then completes with what was chosen.
import { expect, test } from "@playwright/test";
import { createKey, keyRow, rowAction, saveNewSecret, signUp, uniqueEmail, PASSWORD } from "./helpers";
import { ageSessions } from "./e2e-database";

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
  await expect(confirm.getByRole("alert")).toHaveText("That password is not right.");
  await confirm.getByLabel("Password").fill(PASSWORD);
  await confirm.getByRole("button", { name: "Confirm" }).click();

  // The same rotation, with the grace period chosen before the question, went through.
  await saveNewSecret(page);
  await expect(keyRow(page, "payments prod").filter({ hasText: "Expiring after rotation" })).toHaveCount(1);
});
