// "Two-factor required" in the browser: a member without two-factor sees, of
// the team, only a request to turn it on and the key list (label, fragment,
// status) with "This key leaked"; every other page of the team sends them
// back there. Once they turn it on, the team is theirs again.
import { expect, test } from "@playwright/test";
import { e2eAdmin, e2eTeam } from "./e2e-admin";
import { expectAccessibleAtBothWidths, signUp, uniqueEmail } from "./helpers";
import { e2eOutbox, waitForMail } from "./outbox";
import { enrolTwoFactor } from "./two-factor-helpers";

test("a member must turn on two-factor before seeing the team", async ({ page: member, browser }) => {
  test.setTimeout(120_000);
  const [ownerEmail, memberEmail] = [uniqueEmail("2fa-owner"), uniqueEmail("2fa-member")];
  const owner = await (await browser.newContext()).newPage();
  await signUp(owner, ownerEmail);
  await signUp(member, memberEmail);
  const slug = await e2eTeam("Strict", ownerEmail, [[memberEmail, "developer"]]);
  await e2eAdmin(["key:create", "--team", slug, "--email", memberEmail, "--env", "dev", "--label", "made before"]);

  // The control: before the policy, the member sees the whole team.
  await member.goto(`/dashboard/${slug}/members`);
  await expect(member.getByRole("heading", { level: 1 })).toHaveText("Members of Strict");

  // The owner has two-factor: the policy never holds them back.
  await enrolTwoFactor(owner);
  await e2eAdmin(["team:policy", "--team", slug, "--require-two-factor", "on"]);
  const [mail] = await waitForMail(e2eOutbox(), memberEmail, "The team Strict now requires two-factor sign-in");
  expect(mail!.text).toContain("/account");

  // Every page of the team sends them to the key list, which asks them to turn it on.
  for (const path of ["/members", "/activity", "/settings", ""]) {
    await member.goto(`/dashboard/${slug}${path}`);
    await expect(member.getByRole("heading", { level: 1 })).toHaveText("Turn on two-factor sign-in to use Strict");
  }
  await expect(member.getByTestId("two-factor-required")).toContainText("This team requires two-factor sign-in");
  const row = member.getByTestId("key-row").filter({ hasText: "made before" });
  await expect(row).toContainText("sk_dev_");
  await expect(row.getByRole("link")).toHaveCount(0);
  await expect(member.getByRole("button", { name: "Create key" })).toHaveCount(0);
  // Its menu offers only "This key leaked".
  await row.getByRole("button", { name: "Actions for “made before”" }).click();
  await expect(member.getByRole("menuitem")).toHaveText(["This key leaked…"]);
  await member.keyboard.press("Escape");
  await expectAccessibleAtBothWidths(member, "the team, held back by two-factor");

  // The owner sees who has not turned it on.
  await owner.goto(`/dashboard/${slug}/members`);
  await expect(owner.getByTestId("members-without-two-factor")).toContainText("One member has not turned it on");
  await expect(owner.getByTestId("member-row").filter({ hasText: memberEmail })).toContainText("No two-factor");

  // Turning it on gives the team back.
  await member.getByRole("link", { name: "Turn on two-factor sign-in" }).click();
  await enrolTwoFactor(member);
  await member.goto(`/dashboard/${slug}/members`);
  await expect(member.getByRole("heading", { level: 1 })).toHaveText("Members of Strict");
  await member.goto(`/dashboard/${slug}`);
  await expect(member.getByRole("button", { name: "Create key" })).toBeVisible();
  await expect(member.getByTestId("key-row").filter({ hasText: "made before" }).getByRole("link")).toHaveCount(1);
});
