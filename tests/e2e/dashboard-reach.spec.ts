// The dashboard for everyone: on a phone, with a screen reader's eyes (axe),
// and with the keyboard alone.
import { expect, test, type Page } from "@playwright/test";
import { docsPages } from "../../lib/docs/nav";
import {
  createKey,
  expectAccessibleLightAndDark,
  keyRow,
  personalTeamPath,
  rowAction,
  signUp,
  uniqueEmail,
} from "./helpers";
import { SWEEP } from "./sweep";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const LONG_LABEL = "a-very-long-label-with-no-spaces-at-all-to-wrap-0123456789abcdef".slice(0, 64);

/** Nothing sticks out sideways: the page does not scroll, and every focusable element is on screen. */
async function expectFitsScreen(page: Page, label: string, { modal = false } = {}) {
  const result = await page.evaluate(() => {
    const root = document.documentElement;
    const width = root.clientWidth;
    const focusable = [
      ...document.querySelectorAll<HTMLElement>(
        "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]",
      ),
    ].filter(
      (el) =>
        el.tabIndex >= 0 &&
        !el.closest("[hidden], [inert], [aria-hidden='true']") &&
        el.getClientRects().length > 0 &&
        getComputedStyle(el).visibility !== "hidden",
    );
    return {
      scrollWidth: root.scrollWidth,
      width,
      // Hiding the overflow does not count as fitting.
      overflow: [root, document.body].map((el) => getComputedStyle(el).overflowX),
      outside: focusable
        .filter((el) => {
          const box = el.getBoundingClientRect();
          return box.left < -1 || box.right > width + 1;
        })
        .map((el) => el.outerHTML.slice(0, 100)),
    };
  });
  // A modal dialog locks the page's scrolling while it is open; that is not hiding an overflow.
  const hidden = result.overflow.filter((value) => value === "hidden" || value === "clip");
  if (!modal) expect(hidden, `${label}: overflow hidden`).toEqual([]);
  expect(result.scrollWidth, `${label}: page width`).toBeLessThanOrEqual(result.width);
  expect(result.outside, `${label}: focusable elements off screen`).toEqual([]);
}

async function userWithKeys(page: Page) {
  await signUp(page, uniqueEmail("reach"));
  await createKey(page, LONG_LABEL, { environment: "Production", expires: "In 30 days" });
  await createKey(page, "billing service");
  const rotate = await rowAction(page, "billing service", "Rotate");
  await rotate.getByRole("button", { name: "Rotate key" }).click();
  await page.getByRole("alertdialog").getByLabel("I have saved this key").check();
  await page.getByRole("alertdialog").getByRole("button", { name: "Done" }).click();
  return (await keyRow(page, LONG_LABEL).getAttribute("data-key-id"))!;
}

test("no page scrolls sideways on a phone, and nothing focusable is off screen", SWEEP, async ({ page }) => {
  test.setTimeout(180_000);
  const keyId = await userWithKeys(page);
  const team = await personalTeamPath(page);
  await page.setViewportSize(PHONE);
  const pages = [
    `${team}/members`,
    "/dashboard",
    "/dashboard?inactive=1",
    `/dashboard/keys/${keyId}`,
    "/dashboard/activity",
    "/dashboard/teams/new",
    "/account",
    ...docsPages.map((docsPage) => docsPage.href),
  ];
  for (const href of pages) {
    await page.goto(href);
    await expectFitsScreen(page, href);
  }
  // Dialogs fit too.
  await page.goto("/dashboard");
  await page.getByRole("button", { name: "Create key" }).click();
  await expectFitsScreen(page, "create dialog", { modal: true });
  await page.keyboard.press("Escape");
  await rowAction(page, "billing service", "Revoke");
  await expectFitsScreen(page, "revoke dialog", { modal: true });

  const signedOut = await page.context().browser()!.newContext({ viewport: PHONE });
  const anonymous = await signedOut.newPage();
  for (const href of ["/sign-in", "/sign-up", "/forgot-password", "/report-a-key", "/"]) {
    await anonymous.goto(href);
    await expectFitsScreen(anonymous, href);
  }
  await signedOut.close();
});

// One test per screen width, so each keeps its budget on a busy machine.
for (const viewport of [DESKTOP, PHONE]) {
  test(
    `axe finds nothing serious at ${viewport.width}px on the dashboard, key page, activity, account, sign-in, sign-up, forgot password and report a key`,
    SWEEP,
    async ({ page, browser }) => {
      test.setTimeout(180_000);
      const keyId = await userWithKeys(page);
      const team = await personalTeamPath(page);
      const signedIn = [
        `${team}/members`,
        "/dashboard",
        `/dashboard?q=billing`,
        `/dashboard/keys/${keyId}`,
        "/dashboard/activity",
        `${team}/activity?kind=keys`,
        "/dashboard/teams/new",
        "/account",
        "/account/two-factor",
      ];
      const signedOut = await browser.newContext();
      const anonymous = await signedOut.newPage();
      for (const [tab, hrefs] of [
        [page, signedIn],
        [
          anonymous,
          ["/sign-in", "/sign-up", "/sign-up/check-inbox", "/forgot-password", "/report-a-key", "/no-such-page"],
        ],
      ] as const) {
        await tab.setViewportSize(viewport);
        for (const href of hrefs) {
          await tab.goto(href);
          await expectAccessibleLightAndDark(tab, `${href} at ${viewport.width}px`);
        }
      }
      await signedOut.close();
      // States, not only pages: the create dialog open, and the message after a revoke (its link was told apart by
      // colour alone).
      await page.goto("/dashboard");
      await page.getByRole("button", { name: "Create key" }).click();
      await expect(page.getByRole("dialog", { name: "Create an API key" })).toBeVisible();
      await expectAccessibleLightAndDark(page, `the create dialog at ${viewport.width}px`);
      await page.keyboard.press("Escape");
      const revoke = await rowAction(page, "billing service", "Revoke");
      await revoke.getByRole("button", { name: "Revoke key" }).click();
      await expect(page.getByTestId("toast")).toBeVisible();
      await expectAccessibleLightAndDark(page, `the message after a revoke at ${viewport.width}px`);
    },
  );
}

test.describe("with the keyboard alone", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"] });

  test("create, rotate with a grace period, revoke and report a leak, with focus after each dialog", async ({
    page,
  }) => {
    await signUp(page, uniqueEmail("keyboard"));
    const press = (key: string) => page.keyboard.press(key);
    const createButton = page.getByRole("button", { name: "Create key" });
    const heading = page.getByRole("heading", { level: 1, name: "API keys" });

    // Create: Enter in the label field submits; the secret dialog starts on Copy.
    const create = async (label: string) => {
      await createButton.focus();
      await press("Enter");
      await expect(page.getByRole("dialog").getByLabel("Label")).toBeFocused();
      await page.keyboard.type(label);
      await press("Enter");
      const reveal = page.getByRole("alertdialog");
      await expect(reveal.getByRole("button", { name: "Copy" })).toBeFocused();
      await press("Enter");
      await expect(reveal.getByText("Copied to the clipboard.")).toBeVisible();
      await press("Tab"); // "I have saved this key"
      await press("Tab"); // Close
      await press("Tab"); // Done
      await expect(reveal.getByRole("button", { name: "Done" })).toBeFocused();
      await press("Enter");
      await expect(page.getByRole("alertdialog")).toHaveCount(0);
      await expect(createButton).toBeFocused();
    };
    await create("keyboard one");
    await create("keyboard two");
    await create("keyboard three");

    // Rotate with a 1-hour grace: the menu, then the dialog, which opens on Cancel.
    const oneId = (await keyRow(page, "keyboard one").getAttribute("data-key-id"))!;
    await page.getByRole("button", { name: "Actions for “keyboard one”" }).focus();
    await press("Enter");
    await expect(page.getByRole("menuitem", { name: "Rotate “keyboard one”" })).toBeFocused();
    await press("Enter");
    const rotate = page.getByRole("alertdialog", { name: "Rotate “keyboard one”" });
    await expect(rotate.getByRole("button", { name: "Cancel" })).toBeFocused();
    await press("Shift+Tab"); // the chosen grace period, 24 hours
    await expect(rotate.getByLabel("In 24 hours")).toBeFocused();
    await press("ArrowUp");
    await expect(rotate.getByLabel("In 1 hour")).toBeChecked();
    await press("Tab"); // Cancel
    await press("Tab"); // Rotate key
    await press("Enter");
    const rotated = page.getByRole("alertdialog", { name: "Save your new key “keyboard one”" });
    await expect(rotated.getByRole("button", { name: "Copy" })).toBeFocused();
    await press("Tab");
    await expect(rotated.getByLabel("I have saved this key")).toBeFocused();
    await press("Space");
    await press("Tab");
    await press("Tab");
    await press("Enter");
    await expect(page.getByRole("alertdialog")).toHaveCount(0);
    // Back on the menu button of the rotated key, which now waits out its grace period.
    await expect(page.locator(`#key-actions-${oneId}`)).toBeFocused();
    await expect(keyRow(page, "keyboard one").filter({ hasText: "Expiring after rotation" })).toContainText(
      "Stops working in 1 hour",
    );

    // Revoke, with a reason typed and Enter: the row leaves the list, focus goes to the heading.
    await page.getByRole("button", { name: "Actions for “keyboard two”" }).focus();
    await press("Enter");
    await press("End");
    await expect(page.getByRole("menuitem", { name: "Revoke “keyboard two”" })).toBeFocused();
    await press("Enter");
    const revoke = page.getByRole("alertdialog", { name: "Revoke “keyboard two”" });
    await expect(revoke.getByRole("button", { name: "Cancel" })).toBeFocused();
    await press("Shift+Tab");
    await expect(revoke.getByLabel("Reason (optional)")).toBeFocused();
    await page.keyboard.type("keyboard test");
    await press("Enter");
    await expect(page.getByTestId("toast").filter({ hasText: "Revoked “keyboard two”." })).toBeVisible();
    await expect(keyRow(page, "keyboard two")).toHaveCount(0);
    await expect(heading).toBeFocused();

    // Report a leak: the replacement's secret, then focus on the heading (the leaked row is gone).
    await page.getByRole("button", { name: "Actions for “keyboard three”" }).focus();
    await press("Enter");
    await press("ArrowDown");
    await expect(page.getByRole("menuitem", { name: "This key leaked: “keyboard three”" })).toBeFocused();
    await press("Enter");
    const leak = page.getByRole("alertdialog", { name: "Report “keyboard three” leaked" });
    await expect(leak.getByRole("button", { name: "Cancel" })).toBeFocused();
    await press("Tab");
    await expect(leak.getByRole("button", { name: "Revoke and replace now" })).toBeFocused();
    await press("Enter");
    const replaced = page.getByRole("alertdialog", { name: "Save the replacement for “keyboard three”" });
    await expect(replaced.getByRole("button", { name: "Copy" })).toBeFocused();
    await press("Enter");
    // Done is enabled once the copy has landed; until then Tab would pass it by.
    await expect(replaced.getByRole("button", { name: "Done" })).toBeEnabled();
    await press("Tab"); // "I have saved this key"
    await press("Tab"); // the leaked key's request log
    await expect(replaced.getByRole("link", { name: "its request log" })).toBeFocused();
    await press("Tab"); // the leaked-key checklist
    await expect(replaced.getByRole("link", { name: "leaked-key checklist" })).toBeFocused();
    await press("Tab"); // Close
    await press("Tab"); // Done
    await expect(replaced.getByRole("button", { name: "Done" })).toBeFocused();
    await press("Enter");
    await expect(page.getByRole("alertdialog")).toHaveCount(0);
    await expect(heading).toBeFocused();
    await expect(keyRow(page, "keyboard three")).toHaveCount(1); // the replacement
  });
});
