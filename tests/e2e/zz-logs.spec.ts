// Runs last (playwright.config.ts: the "logs" project waits for every other test): the server's log from the whole e2e
// run must hold no password, session token or auth secret, and neither the
// log nor the database holds a mailed token, a TOTP secret or a recovery code.
// (The integration tests' own log is scanned by tests/after-integration/.)
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { PASSWORD, SIGN_UP_SUBJECT, signOut, signUp, uniqueEmail } from "./helpers";
import { letLockoutWindowPass, unsentMailTo } from "./e2e-database";
import { e2eOutbox, linkIn, waitForMail } from "./outbox";
import { enrolTwoFactor } from "./two-factor-helpers";

test("no mailed token, TOTP secret or recovery code is in the database or the server's log in plain text", async ({
  page,
}) => {
  const email = uniqueEmail("secrets");
  // The suite's deliberate failures from this address (wrong passwords and codes) are not this test's subject.
  letLockoutWindowPass();
  await signUp(page, email);
  const [signUpMail] = await waitForMail(e2eOutbox(), email, SIGN_UP_SUBJECT);
  const signUpToken = linkIn(signUpMail!, "/sign-up/confirm").searchParams.get("token")!;
  const { uri, codes } = await enrolTwoFactor(page);
  const totpSecret = new URL(uri).searchParams.get("secret")!;
  await signOut(page);
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send a reset link" }).click();
  const [resetMail] = await waitForMail(e2eOutbox(), email, "Reset your Keyport password");
  const resetToken = linkIn(resetMail!, "/reset-password").searchParams.get("token")!;
  await expect.poll(() => unsentMailTo(email)).toBe(0);

  const secrets = {
    "the sign-up token": signUpToken,
    "the reset token": resetToken,
    "the TOTP secret": totpSecret,
    ...Object.fromEntries(
      codes.flatMap((code, i) => [
        [`recovery code ${i}`, code],
        [`recovery code ${i} bare`, code.replace(/-/g, "")],
      ]),
    ),
  };
  expect(signUpToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(resetToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(totpSecret).toMatch(/^[A-Z2-7]{32}$/);

  // The database's bytes as they are on disk: the file and its write-ahead log, every table and every page.
  const dir = process.env.E2E_DATA_DIR!;
  const database = ["e2e.db", "e2e.db-wal"]
    .map((file) => path.join(dir, file))
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString("latin1"))
    .join("");
  expect(database).toContain(email); // the scan reads this account's rows
  const log = readFileSync(path.join(process.cwd(), ".test-logs", "e2e-server.log"), "utf8");
  for (const [name, value] of Object.entries(secrets)) {
    for (const variant of [value, value.toLowerCase()]) {
      expect(database.includes(variant), `the database holds ${name}`).toBe(false);
      expect(log.includes(variant), `the log holds ${name}`).toBe(false);
    }
  }
});

test("the server's logs hold no password, session token or auth secret", async ({ page }) => {
  await signUp(page, uniqueEmail("logs"));
  const token = (await page.context().cookies()).find((cookie) => cookie.name === "keyport.session")?.value;
  expect(token).toBeTruthy();
  await signOut(page);

  const log = readFileSync(path.join(process.cwd(), ".test-logs", "e2e-server.log"), "utf8");
  expect(log).toMatch(/"event":"auth\.sign_in"/);
  expect(log).toMatch(/"event":"auth\.sign_out"/);
  const secret = process.env.E2E_AUTH_SECRET;
  expect(secret).toBeTruthy();
  for (const forbidden of [PASSWORD, "not the right password", "not the password", token!, secret!]) {
    expect(log.includes(forbidden), `log contains ${forbidden.slice(0, 4)}…`).toBe(false);
  }
});
