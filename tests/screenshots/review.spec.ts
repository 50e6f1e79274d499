// `npm run screenshots:review`: every page a person sees, at 1280 and 390 px
// wide, light and dark, written to .scratch/review/ for a look before a UI
// change lands (the README's own pictures are readme.spec.ts).
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ageSessions } from "../e2e/e2e-database";
import { createKey, rowAction, saveNewSecret } from "../e2e/helpers";
import { buildScene, shoot } from "./scene";

const REVIEW = path.resolve(".scratch", "review");

test("every page at 1280 and 390 px, light and dark, for review", async ({ page }) => {
  const { email, keyPage, restrictedKeyPage } = await buildScene(page);
  // For the review only: a key a stranger reported through the form (the
  // dashboard's notice), and a decoy that someone tried (the note under it).
  await page.goto("/dashboard");
  const reported = await createKey(page, "old deploy script");
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an API key" });
  await dialog.getByLabel("Label").fill("ci decoy");
  await dialog.getByLabel(/Decoy key/).check();
  await dialog.getByRole("button", { name: "Create key" }).click();
  const decoy = await saveNewSecret(page);
  await page.request.get("/api/v1/models", { headers: { Authorization: `Bearer ${decoy}` } });
  await page.goto("/report-a-key");
  await page.getByLabel("The key you found").fill(reported);
  await page.getByLabel("Where you found it (optional)").fill("https://gist.example/0123456789abcdef");
  await page.getByRole("button", { name: "Report this key" }).click();
  await expect(page.getByRole("status")).toBeVisible();
  const pages = [
    "/dashboard",
    "/dashboard?inactive=1",
    keyPage,
    "/dashboard/activity",
    "/account",
    "/account/two-factor",
    "/sign-in",
    "/sign-up",
    "/sign-up/check-inbox",
    "/forgot-password",
    "/report-a-key",
    "/",
    "/docs/routes/gemini-stream-generate-content",
  ];
  for (const colorScheme of ["light", "dark"] as const) {
    for (const width of [1280, 390]) {
      const tag = `${width}-${colorScheme}`;
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      for (const href of pages) {
        await page.goto(href);
        const name = href === keyPage ? "key-page" : href.replace(/[^a-z0-9]+/gi, "_") || "home";
        await shoot(page, path.join(REVIEW, `${name}-${tag}.png`), { fullPage: true });
      }
      await page.goto("/account/two-factor");
      // Started on the first pass (while the session is fresh); later passes find the setup waiting.
      const setUp = page.getByRole("button", { name: "Set up two-factor sign-in" });
      if (await setUp.isVisible()) await setUp.click();
      await expect(page.getByTestId("totp-qr")).toBeVisible();
      await shoot(page, path.join(REVIEW, `two-factor-setup-${tag}.png`), { fullPage: true });
      // The fresh sign-in dialog, before a production key change on a session that proved itself long ago.
      ageSessions(email);
      await page.goto("/dashboard");
      await rowAction(page, "billing service", "Revoke");
      await page.getByRole("button", { name: "Revoke key" }).click();
      await expect(page.getByRole("dialog", { name: "Confirm it’s you" })).toBeVisible();
      await shoot(page, path.join(REVIEW, `step-up-dialog-${tag}.png`));
      await page.keyboard.press("Escape");
      await page.goto(restrictedKeyPage);
      await page.getByRole("button", { name: "Edit access of “search indexer”" }).click();
      await shoot(page, path.join(REVIEW, `key-access-edit-${tag}.png`), { fullPage: true });
      await page.goto("/dashboard");
      await page.getByRole("button", { name: "Actions for “billing service”" }).click();
      await shoot(page, path.join(REVIEW, `menu-${tag}.png`));
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Create key" }).click();
      await shoot(page, path.join(REVIEW, `create-dialog-${tag}.png`));
      // The restriction fields, with chosen scopes and the routes they allow.
      await page
        .getByRole("dialog")
        .getByRole("radio", { name: /Chosen scopes/ })
        .check();
      await page
        .getByRole("dialog")
        .getByRole("checkbox", { name: /models:invoke/ })
        .check();
      await page
        .getByRole("dialog")
        .getByText(/Can call \d+ of 13 routes/)
        .click();
      await page
        .getByRole("dialog")
        .getByLabel(/Rate limit/)
        .scrollIntoViewIfNeeded();
      await shoot(page, path.join(REVIEW, `create-dialog-scopes-${tag}.png`));
      await page.getByRole("dialog").getByLabel("Label").fill("review");
      await page.getByRole("dialog").getByRole("button", { name: "Create key" }).click();
      await expect(page.getByRole("alertdialog")).toBeVisible();
      await shoot(page, path.join(REVIEW, `secret-dialog-${tag}.png`));
      await saveNewSecret(page);
      await rowAction(page, "review", "Revoke");
      await shoot(page, path.join(REVIEW, `revoke-dialog-${tag}.png`));
      await page.getByRole("button", { name: "Revoke key" }).click();
      await expect(page.getByTestId("toast").first()).toBeVisible();
    }
  }
});
