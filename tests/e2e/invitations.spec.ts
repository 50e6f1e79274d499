// An invitation by mail, as people meet it: an owner invites an address from
// the members page; the mail arrives with its link; the invited person, with
// no account yet, creates one from the link and lands in the team with the
// role they were given. Someone signed in with another address is told the
// link was not found, whatever its state, and a withdrawn link says so to
// its holder.
import { expect, test } from "@playwright/test";
import { e2eTeam } from "./e2e-admin";
import { e2eOutbox, linkIn, waitForMail } from "./outbox";
import { choose, expectAccessibleAtBothWidths, PASSWORD, signUp, uniqueEmail } from "./helpers";

const TEAM = "Invited — ünïcödé";

test("invited by mail, a new person creates an account from the link and lands in the team as a developer", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const ownerEmail = uniqueEmail("inv-owner");
  const inviteeEmail = uniqueEmail("inv-new");
  await signUp(page, ownerEmail);
  const slug = await e2eTeam(TEAM, ownerEmail);

  await page.goto(`/dashboard/${slug}/members`);
  await expect(page.getByText("No invitations are waiting.")).toBeVisible();
  await page.getByLabel("Email address to invite").fill(inviteeEmail);
  await choose(page, page.getByLabel("Role", { exact: true }).last(), "developer");
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Invitation sent" })).toContainText(
    `Invitation sent to ${inviteeEmail} as developer.`,
  );
  await page.reload();
  await expect(page.getByTestId("invitation-row")).toHaveCount(1);
  await expect(page.getByTestId("invitation-row")).toContainText(inviteeEmail);

  // The mail, and its link.
  const [mail] = await waitForMail(e2eOutbox(), inviteeEmail, `You are invited to the team ${TEAM} on Keyport`);
  expect(mail!.text).toContain(`${ownerEmail} invites you to join the Keyport team "${TEAM}" as developer.`);
  const link = linkIn(mail!, "/invitations/");

  // Someone else, signed in, opening the link: not found (the control below opens it as the invitee).
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signUp(other, uniqueEmail("inv-other"));
  expect((await other.goto(`${link.pathname}`))!.status()).toBe(404);
  await otherContext.close();

  // The invited person, with no account: a password, and they are in the team as a developer.
  const inviteeContext = await browser.newContext();
  const invitee = await inviteeContext.newPage();
  await invitee.goto(link.pathname);
  await expect(invitee.getByRole("heading", { level: 1 })).toHaveText(`Join ${TEAM}`);
  await expect(invitee.getByText(`as developer, with the address ${inviteeEmail}`)).toBeVisible();
  await expectAccessibleAtBothWidths(invitee, "the invitation's page");
  await invitee.getByLabel("Choose a password").fill(PASSWORD);
  await invitee.getByRole("button", { name: "Create account and join" }).click();
  await expect(invitee).toHaveURL(new RegExp(`/dashboard/${slug}$`));
  await expect(invitee.getByTestId("team-switcher")).toHaveAccessibleName(`Team: ${TEAM}. Switch team`);
  await expect(invitee.getByRole("button", { name: "Create key" })).toBeEnabled();

  // The owner sees them as a developer; the invitation is no longer waiting, and its link says it was used.
  await page.goto(`/dashboard/${slug}/members`);
  await expect(page.getByTestId("member-row").filter({ hasText: inviteeEmail })).toContainText("developer");
  await expect(page.getByTestId("invitation-row")).toHaveCount(0);
  await invitee.goto(link.pathname);
  await expect(invitee.getByText("This invitation was already used.")).toBeVisible();
  await inviteeContext.close();
});

test("a withdrawn invitation's link says so", async ({ page, browser }) => {
  const ownerEmail = uniqueEmail("inv-withdraw");
  const inviteeEmail = uniqueEmail("inv-withdrawn");
  await signUp(page, ownerEmail);
  const slug = await e2eTeam("Withdrawing", ownerEmail);
  await page.goto(`/dashboard/${slug}/members`);
  await page.getByLabel("Email address to invite").fill(inviteeEmail);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Invitation sent" })).toBeVisible();
  const [mail] = await waitForMail(e2eOutbox(), inviteeEmail, "You are invited to the team Withdrawing on Keyport");
  const link = linkIn(mail!, "/invitations/");
  await page.reload();
  await page.getByRole("button", { name: `Withdraw the invitation to ${inviteeEmail}` }).click();
  // The list no longer has it (the control: it was there before the click, found by the button's name).
  await expect(page.getByTestId("invitation-row")).toHaveCount(0);
  await expect(page.getByText("No invitations are waiting.")).toBeVisible();

  // Someone signed in with another address (here the owner) is told only that the link was not found.
  const signedInElsewhere = await page.goto(link.pathname);
  expect(signedInElsewhere!.status()).toBe(404);
  await expect(page.getByText(/withdrawn/)).toHaveCount(0);

  // The link's holder without a session is told it was withdrawn.
  const context = await browser.newContext();
  const invitee = await context.newPage();
  await invitee.goto(link.pathname);
  await expect(invitee.locator("main").getByRole("alert")).toHaveText(
    "This invitation was withdrawn by the team. Ask them for a new one if you need it.",
  );
  await expect(invitee.getByLabel("Choose a password")).toHaveCount(0);
  await context.close();
});
