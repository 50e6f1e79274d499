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
  for (const forbidden of [PASSWORD, "not the right password", "not the password", token!, secret!]) {
    expect(log.includes(forbidden), `log contains ${forbidden.slice(0, 4)}…`).toBe(false);
  }
});

test("the integration tests' logs hold no password, key, token or hash", () => {
  // npm test runs the integration tests before these; their console output is copied here.
  const log = readFileSync(path.join(process.cwd(), ".test-logs", "integration.log"), "utf8");
  expect(log).toMatch(/"event":"key\.created"/);
  for (const secret of ["a long enough password", "integration-tests-secret-0123456789abcdef"]) {
    expect(log.includes(secret), `log contains ${secret.slice(0, 4)}…`).toBe(false);
  }
  // Full keys, session tokens (43 base64url characters) and SHA-256 digests (64 hex) never appear.
  expect(log.match(/sk_(dev|prod)_[0-9A-Za-z]{38}/g)).toBeNull();
  expect(log.match(/(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43,}(?![A-Za-z0-9_-])/g)).toBeNull();
});
