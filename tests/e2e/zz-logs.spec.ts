// Runs last (files run in name order): the server's log from the whole e2e
// run must hold no password, session token or auth secret.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { PASSWORD, signOut, signUp, uniqueEmail } from "./helpers";

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
  for (const forbidden of [PASSWORD, "not the right password", token!, secret!]) {
    expect(log.includes(forbidden), `log contains ${forbidden.slice(0, 4)}…`).toBe(false);
  }
});
