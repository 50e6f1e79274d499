// The approval of a production key, by mail, in the browser: a developer asks
// from the key dialog; the admin's mail links to the request, and opening it
// only shows it; approving takes the button and the admin's fresh sign-in; the
// developer reveals the key once (the secret made then), and a second visit
// says it was revealed already.
import { expect, test } from "@playwright/test";
import { e2eAdmin, e2eTeam } from "./e2e-admin";
import { ageSessions } from "./e2e-database";
import {
  choose,
  expectAccessible,
  expectAccessibleAtBothWidths,
  PASSWORD,
  saveNewSecret,
  signUp,
  uniqueEmail,
} from "./helpers";
import { e2eOutbox, linkIn, waitForMail } from "./outbox";

test("a developer asks, the admin approves from the mailed link, the developer reveals the key once", async ({
  page: admin,
  browser,
}) => {
  test.setTimeout(120_000);
  const [adminEmail, developerEmail] = [uniqueEmail("approver"), uniqueEmail("requester")];
  await signUp(admin, adminEmail);
  const developer = await (await browser.newContext()).newPage();
  await signUp(developer, developerEmail);
  const slug = await e2eTeam("Approvals", adminEmail, [[developerEmail, "developer"]]);
  await e2eAdmin(["team:policy", "--team", slug, "--production-keys", "approval"]);

  // The developer's dialog turns into a request when Production is chosen, and says why.
  await developer.goto(`/dashboard/${slug}`);
  await developer.getByRole("button", { name: "Create key" }).click();
  await developer
    .getByRole("dialog", { name: "Create an API key" })
    .getByLabel(/Production/)
    .check();
  const dialog = developer.getByRole("dialog", { name: "Request a production key" });
  await expect(dialog.getByTestId("production-policy")).toHaveText(/needs an admin's approval/);
  await dialog.getByLabel("Label").fill("billing prod");
  await choose(developer, dialog.getByLabel("Expires"), "In 90 days");
  // Sent without a reason: refused at the field, the label kept.
  await dialog.getByRole("button", { name: "Send request" }).click();
  await expect(dialog.getByLabel("Why the team needs it")).toHaveAccessibleDescription(/Say why/);
  await expect(dialog.getByLabel("Label")).toHaveValue("billing prod");
  await expectAccessible(developer, "request dialog with a field error");
  await dialog.getByLabel("Why the team needs it").fill("Billing goes live on Monday; the payment provider calls us.");
  await dialog.getByRole("button", { name: "Send request" }).click();
  await expect(developer.getByRole("heading", { level: 1 })).toHaveText("Production key “billing prod”");
  await expect(developer.getByText("Waiting for approval")).toBeVisible();

  // The admin's mail; the link opens the request, and nothing is decided by opening it.
  const [mail] = await waitForMail(e2eOutbox(), adminEmail, `Production key requested in Approvals: billing prod`);
  expect(mail!.text).toContain("Billing goes live on Monday");
  expect(mail!.text).not.toMatch(/sk_(dev|prod)_/);
  const link = linkIn(mail!, `/dashboard/${slug}/requests/`);
  ageSessions(adminEmail);
  await admin.goto(`/dashboard/${slug}`);
  // The badge in the dashboard's links counts what waits.
  await expect(admin.getByTestId("requests-badge")).toHaveText(/^1/);
  await admin.goto(link.pathname);
  await expect(admin.getByTestId("request-reason")).toHaveText(/Billing goes live on Monday/);
  await expectAccessibleAtBothWidths(admin, "a pending request, for its approver");
  expect(await e2eAdmin(["key:requests", "--team", slug])).toMatchObject({ pending: [{ label: "billing prod" }] });

  // Approving on a session that has not proved itself lately asks for the password, then goes through.
  await admin.getByLabel("Comment").fill("OK for the launch.");
  await admin.getByRole("button", { name: "Approve" }).click();
  const confirm = admin.getByRole("dialog", { name: "Confirm it’s you" });
  await expect(confirm).toBeVisible();
  await confirm.getByLabel("Password").fill(PASSWORD);
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(admin.getByText("Approved: ready to reveal")).toBeVisible();
  await expect(admin.getByRole("button", { name: "Reveal key" })).toHaveCount(0);
  expect(await e2eAdmin(["key:requests", "--team", slug])).toMatchObject({ pending: [] });

  // The developer is told, and reveals it from the mailed link: the secret is shown once.
  const [decided] = await waitForMail(
    e2eOutbox(),
    developerEmail,
    "Your production key request was approved: billing prod",
  );
  expect(decided!.text).toContain("OK for the launch.");
  await developer.goto(linkIn(decided!, `/dashboard/${slug}/requests/`).pathname);
  await expectAccessibleAtBothWidths(developer, "an approved request, for its requester");
  await developer.getByRole("button", { name: "Reveal key" }).click();
  const secret = await saveNewSecret(developer);
  expect(secret).toMatch(/^sk_prod_/);
  await expect(developer.getByTestId("already-revealed")).toHaveText(/revealed already/);
  await expect(developer.getByRole("button", { name: "Reveal key" })).toHaveCount(0);
  // One key, the developer's: no admin was ever shown its secret.
  const keys = (await e2eAdmin(["key:list", "--team", slug])) as { label: string; owner: string }[];
  expect(keys.map((key) => [key.label, key.owner])).toEqual([["billing prod", developerEmail]]);

  // A second visit (another tab, the mail again) says it was revealed already, and offers no reveal.
  const again = await developer.context().newPage();
  await again.goto(link.pathname);
  await expect(again.getByTestId("already-revealed")).toBeVisible();
  await again.close();
});
