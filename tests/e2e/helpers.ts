import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { e2eOutbox, linkIn, waitForMail } from "./outbox";

export const PASSWORD = "correct horse battery staple";

export function uniqueEmail(label: string): string {
  return `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

export const SIGN_UP_SUBJECT = "Finish creating your Keyport account";

/**
 * Signs up as a person does: the form, then the link from the mail (read from
 * the server's outbox folder), then the password typed again. Ends on the
 * dashboard, signed in.
 */
export async function signUp(page: Page, email: string, password = PASSWORD, base = "", outbox = e2eOutbox()) {
  await page.goto(`${base}/sign-up`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await finishSignUp(page, email, password, base, outbox);
}

/** A page of the person's personal team (the dashboard opens there): /dashboard/personal-<12 hex>, then `rest`. */
export const personalTeamUrl = (rest = "") => new RegExp(`/dashboard/personal-[0-9a-f]{12}${rest}$`);
export const PERSONAL_KEY_URL = /\/dashboard\/personal-[0-9a-f]{12}\/keys\/key_[0-9A-Za-z]{16}$/;

/** The path of the signed-in person's personal team, as /dashboard sends them there. */
export async function personalTeamPath(page: Page): Promise<string> {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(personalTeamUrl());
  return new URL(page.url()).pathname;
}

/** From "Check your inbox" after the sign-up form: the mailed link, the password again, the dashboard. */
export async function finishSignUp(page: Page, email: string, password = PASSWORD, base = "", outbox = e2eOutbox()) {
  // As long as playwright.config.ts gives every expectation: the services tests call this from Vitest, where
  // Playwright's default of 5 s applies, and a production-strength password check on a fresh instance beside the
  // PostgreSQL integration tests took longer in CI (2026-11-27, an AMD machine).
  await expect(page).toHaveURL(/\/sign-up\/check-inbox$/, { timeout: 15_000 });
  const [mail] = await waitForMail(outbox, email, SIGN_UP_SUBJECT);
  const link = linkIn(mail!, "/sign-up/confirm");
  await page.goto(`${base}${link.pathname}${link.search}`);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(personalTeamUrl(), { timeout: 15_000 });
}

export async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(personalTeamUrl());
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** The page-level dialog that shows a new secret once: reads it, says it is saved, closes it. */
export async function saveNewSecret(page: Page): Promise<string> {
  const dialog = page.getByRole("alertdialog");
  const secret = await dialog.getByTestId("new-secret").inputValue();
  expect(secret).toMatch(/^sk_(dev|prod)_[0-9A-Za-z]{38}$/);
  await dialog.getByLabel("I have saved this key").check();
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  return secret;
}

/** Creates a key through the dashboard's dialog and returns its secret. */
export async function createKey(
  page: Page,
  label: string,
  options: { environment?: "Development" | "Production"; expires?: string } = {},
): Promise<string> {
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an API key" });
  await dialog.getByLabel("Label").fill(label);
  if (options.environment) await dialog.getByLabel(new RegExp(options.environment)).check();
  if (options.expires) await choose(page, dialog.getByLabel("Expires"), options.expires);
  await dialog.getByRole("button", { name: "Create key" }).click();
  return saveNewSecret(page);
}

/** Picks an option of one of our (Radix) selects. */
export async function choose(page: Page, select: ReturnType<Page["getByLabel"]>, option: string) {
  await select.click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

/** Signs up a new user, creates a development key in the dashboard and returns its secret. */
export async function newUserWithKey(page: Page, label: string, base = "", outbox = e2eOutbox()): Promise<string> {
  await signUp(page, uniqueEmail(label), PASSWORD, base, outbox);
  return createKey(page, label);
}

/** A key's row in the list. */
export function keyRow(page: Page, label: string | RegExp) {
  return page.getByTestId("key-row").filter({ hasText: label });
}

/** Opens a key's row menu and picks an action ("Rotate", "Revoke", "Report … leaked"). */
export async function rowAction(page: Page, label: string, action: "Rotate" | "Revoke" | "Report leaked") {
  await page
    .getByRole("button", { name: `Actions for “${label}”` })
    .first()
    .click();
  const item = action === "Report leaked" ? `This key leaked: “${label}”` : `${action} “${label}”`;
  await page.getByRole("menuitem", { name: item }).click();
  const title = action === "Report leaked" ? `Report “${label}” leaked` : `${action} “${label}”`;
  return page.getByRole("alertdialog", { name: title });
}

/**
 * axe on the page as it stands. In axe's legacy mode (axe.run in the page
 * itself): the default mode opens a blank page for every scan to merge the
 * results of each frame, which made a scan 2 to 3 times slower here; our
 * pages have no frames, and this checks it. Violations come in full, passes
 * only by rule (axe then skips collecting every passing node).
 */
export async function axeScan(page: Page, label: string) {
  expect(await page.locator("iframe, frame").count(), `${label}: a page with frames needs axe's frame mode`).toBe(0);
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    // The title is checked by expectAccessible, which waits for it: see there.
    .disableRules(["document-title"])
    .options({ resultTypes: ["violations"] })
    .analyze();
  // The scan read the page: a page axe could not see would pass with no violations.
  expect(results.passes.length, `${label}: axe scanned the page`).toBeGreaterThan(0);
  return results;
}

export async function expectAccessible(page: Page, label: string) {
  // axe's "document-title" reads the <head> once, and after a server action Next refreshes the page: for a moment
  // its streamed <title> may be between the old tree and the new one. Twice in CI axe caught that moment on the new
  // key's dialog, the second time after a title check had just passed. So the title is checked here, by a check
  // that waits for the page to settle, before and after the scan; a page with no title still fails both.
  await expect(page, `${label}: the page has a title`).toHaveTitle(/\S/);
  const results = await axeScan(page, label);
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
    label,
  ).toEqual([]);
  await expect(page, `${label}: the page has a title`).toHaveTitle(/\S/);
}

/** Waits until no CSS transition is running: a scan in the middle of one would read colours on their way. */
async function settleTransitions(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => !(animation instanceof CSSTransition) || animation.playState !== "running"),
  );
}

/**
 * axe on the loaded page in light, then in dark, without loading it again:
 * both themes are CSS media queries (app/globals.css), so switching the
 * emulated scheme restyles the page as a reader's system setting would.
 * The page's background is read in each, so a switch that did nothing fails.
 */
export async function expectAccessibleLightAndDark(page: Page, label: string) {
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const seen: string[] = [];
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await settleTransitions(page);
    seen.push(await background());
    await expectAccessible(page, `${label} (${colorScheme})`);
  }
  expect(seen[0], `${label}: the dark scheme changed the page`).not.toBe(seen[1]);
}

/** axe, light and dark, at the page's width and then at a phone's (390 px), on the page as it stands. */
export async function expectAccessibleAtBothWidths(page: Page, label: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  await expectAccessibleLightAndDark(page, `${label} at ${size.width}px`);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessibleLightAndDark(page, `${label} at 390px`);
  await page.setViewportSize(size);
}
