// Service accounts in the browser: an owner makes one on the members page; a
// removal hands one of the leaver's keys to it (rotated, the new secret shown
// once) and revokes the other, and the API answers accordingly on the next
// request; and nothing signs in as a service account.
import { expect, test } from "@playwright/test";
import { absoluteTime } from "../../lib/format-time";
import { e2eAdmin, e2eTeam } from "./e2e-admin";
import { e2eOutbox, mailTo } from "./outbox";
import {
  createKey,
  expectAccessibleAtBothWidths,
  keyRow,
  PASSWORD,
  signIn,
  signOut,
  signUp,
  uniqueEmail,
} from "./helpers";

const SERVICE_ACCOUNT = "CI bot — ünïcödé";

const status = async (request: import("@playwright/test").APIRequestContext, secret: string) => {
  const response = await request.get("/api/v1/models", { headers: { Authorization: `Bearer ${secret}` } });
  return [
    response.status(),
    response.ok() ? null : ((await response.json()) as { error: { code: string } }).error.code,
  ];
};

test("a removal hands one key to a service account, rotated, and revokes the other", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const [ownerEmail, leaverEmail] = [uniqueEmail("sa-owner"), uniqueEmail("sa-leaver")];
  await signUp(page, ownerEmail);
  const leaverContext = await browser.newContext();
  const leaver = await leaverContext.newPage();
  await signUp(leaver, leaverEmail);
  const slug = await e2eTeam("Deploys", ownerEmail, [[leaverEmail, "developer"]]);

  // The owner makes a service account on the members page; a second of the same name in another case is refused.
  await page.goto(`/dashboard/${slug}/members`);
  await expect(page.getByText("This team has no service accounts.")).toBeVisible();
  const name = page.getByLabel("New service account's name");
  await name.fill(SERVICE_ACCOUNT);
  await page.getByRole("button", { name: "Create service account" }).click();
  await expect(page.getByTestId("service-account-row")).toHaveText(new RegExp(`${SERVICE_ACCOUNT}.*0 keys in use`));
  await name.fill(SERVICE_ACCOUNT.toUpperCase());
  await page.getByRole("button", { name: "Create service account" }).click();
  await expect(name).toHaveAccessibleDescription(/already has a service account of that name/);
  await expect(page.getByTestId("service-account-row")).toHaveCount(1);

  // The leaver makes two keys of their own in the team.
  await leaver.goto(`/dashboard/${slug}`);
  const deploys = await createKey(leaver, "ci deploys");
  const laptop = await createKey(leaver, "laptop");

  // The owner removes them: the removal page lists both keys; one is handed over and rotated, the other revoked.
  await page.goto(`/dashboard/${slug}/members`);
  await page.getByRole("link", { name: `Remove ${leaverEmail}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Remove ${leaverEmail}`);
  await expect(page.getByTestId("departing-key")).toHaveCount(2);
  await expectAccessibleAtBothWidths(page, "the removal page");
  await page.getByLabel("What happens to “ci deploys”").selectOption({
    label: `Hand it to ${SERVICE_ACCOUNT} and rotate it (recommended): the new secret is shown here`,
  });
  // The old secret, which the leaver knows, stops at once: no grace for them.
  await page
    .getByLabel("For each key you rotate: when the old secret, which they know, stops working")
    .selectOption({ label: "Immediately" });
  await page.getByRole("button", { name: `Remove ${leaverEmail}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Removed." })).toHaveText(
    "Removed. 1 key of theirs stopped working just now. 1 key was handed to a service account and keeps working.",
  );
  const shown = page.getByTestId("handed-over-secret");
  await expect(shown).toHaveCount(1);
  const replacement = await shown.getByRole("textbox", { name: "New secret of “ci deploys”" }).inputValue();
  expect(replacement).toMatch(/^sk_dev_/);

  // The next requests: the handed-over key's old secret no longer works (no grace was chosen), its replacement does;
  // the other key is revoked.
  expect((await status(page.request, deploys))[0]).toBe(401);
  expect(await status(page.request, replacement)).toEqual([200, null]);
  expect(await status(page.request, laptop)).toEqual([401, "revoked_api_key"]);

  // The list names the service account as the owner; the activity names the handover.
  await page.goto(`/dashboard/${slug}`);
  // (The old key stopped, so the list of keys in use shows only its replacement.)
  await expect(keyRow(page, "ci deploys").getByTestId("key-owner")).toHaveText(`Service account: ${SERVICE_ACCOUNT}`);
  await page.goto(`/dashboard/${slug}/activity`);
  await expect(page.getByTestId("activity-row").filter({ hasText: "Key handed to a service account" })).toContainText(
    `From ${leaverEmail} to the service account “${SERVICE_ACCOUNT}”; rotated`,
  );
  await expect(page.getByTestId("activity-row").first()).toContainText("1 handed to a service account");

  // The leaver is out of the team.
  expect((await leaver.goto(`/dashboard/${slug}`))!.status()).toBe(404);
  await leaverContext.close();
});

test("the removal page says why it proposes a rotation, and a rotation sent with the grace untouched keeps the old secret 24 hours", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const [ownerEmail, leaverEmail] = [uniqueEmail("sa-grace-owner"), uniqueEmail("sa-grace-leaver")];
  await signUp(page, ownerEmail);
  const leaverContext = await browser.newContext();
  const leaver = await leaverContext.newPage();
  await signUp(leaver, leaverEmail);
  const slug = await e2eTeam("Default grace", ownerEmail, [[leaverEmail, "developer"]]);
  await e2eAdmin(["service-account:create", "--team", slug, "--name", "deployer"]);
  await leaver.goto(`/dashboard/${slug}`);
  const secret = await createKey(leaver, "release");
  await leaverContext.close();

  await page.goto(`/dashboard/${slug}/members`);
  await page.getByRole("link", { name: `Remove ${leaverEmail}` }).click();
  await expect(page.locator("main p").filter({ hasText: "The keys they made in this team" })).toHaveText(
    "The keys they made in this team stop working at once, unless you hand one to a service account of the team: " +
      "then it keeps working, with its usage and history. They know its secret, so rotating it as you hand it over " +
      "is proposed: the old secret keeps working while you deploy the new one.",
  );
  const grace = page.getByLabel("For each key you rotate: when the old secret, which they know, stops working");
  await expect(grace).toHaveValue("24h");
  await expect(grace.locator("option:checked")).toHaveText("In 24 hours");
  // The rotation chosen, the grace left as it was.
  await page.getByLabel("What happens to “release”").selectOption({
    label: "Hand it to deployer and rotate it (recommended): the new secret is shown here",
  });
  const sent = Date.now();
  await page.getByRole("button", { name: `Remove ${leaverEmail}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Removed." })).toHaveText(
    "Removed. None of their keys was revoked. 1 key was handed to a service account and keeps working.",
  );
  const done = Date.now();
  // The old secret stops 24 hours after the removal (to the minute, as the page writes it).
  const day = 24 * 60 * 60 * 1000;
  const stops = [...new Set([sent, done].map((at) => absoluteTime(new Date(at + day))))];
  const shown = page.getByTestId("handed-over-secret");
  await expect(shown).toContainText(new RegExp(`now deployer's: the old secret stops (${stops.join("|")})\\.`));
  const replacement = await shown.getByRole("textbox", { name: "New secret of “release”" }).inputValue();
  // Within the grace both secrets work.
  expect(await status(page.request, secret)).toEqual([200, null]);
  expect(await status(page.request, replacement)).toEqual([200, null]);
});

test("nothing signs in as a service account: the sign-in form, the reset form, next-auth's callbacks, a cookie", async ({
  page,
}) => {
  const ownerEmail = uniqueEmail("sa-guard");
  await signUp(page, ownerEmail);
  const slug = await e2eTeam("Guarded", ownerEmail);
  const made = (await e2eAdmin(["service-account:create", "--team", slug, "--name", "deploy-bot"])) as { id: string };
  await signOut(page);
  // A browser with no cookies at all from here, so a session cookie that appears is one these attempts made.
  await page.context().clearCookies();

  // The sign-in form, with its name, its id, and its name as an address: refused as for anyone unknown.
  for (const [email, answer] of [
    ["deploy-bot", "Enter a valid email address, like you@example.com."],
    [made.id, "Enter a valid email address, like you@example.com."],
    ["deploy-bot@example.com", "The email or password is not right."],
  ] as const) {
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText(answer).first()).toBeVisible();
    await expect(page).toHaveURL(/\/sign-in/);
    expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain("keyport.session");
  }
  // The reset form: the usual answer, and no mail to anyone for it.
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill("deploy-bot@example.com");
  await page.getByRole("button", { name: "Send a reset link" }).click();
  await expect(page.getByText(/If an account/i)).toBeVisible();
  expect(await mailTo(e2eOutbox(), "deploy-bot@example.com")).toEqual([]);
  // next-auth's endpoints: no credentials provider, and no session for the name or the id.
  const csrf = (await (await page.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  for (const email of ["deploy-bot", made.id]) {
    const response = await page.request.post("/api/auth/callback/credentials", {
      form: { csrfToken: csrf.csrfToken, email, password: PASSWORD },
      maxRedirects: 0,
    });
    expect(response.status()).not.toBe(200);
    expect(response.headers()["set-cookie"] ?? "").not.toMatch(/keyport\.session/);
  }
  // A session cookie holding its id opens nothing.
  await page.context().addCookies([{ name: "keyport.session", value: made.id, url: page.url() }]);
  await page.goto(`/dashboard/${slug}`);
  await expect(page).toHaveURL(/\/sign-in/);

  // The control: the owner signs in with the same form and opens the team.
  await signIn(page, ownerEmail);
  expect((await page.goto(`/dashboard/${slug}`))!.status()).toBe(200);
});

test("without JavaScript, a removal hands a key over with the page's plain selects, and ends on a page that says so", async ({
  page,
  browser,
}) => {
  const [ownerEmail, leaverEmail] = [uniqueEmail("sa-nojs-owner"), uniqueEmail("sa-nojs-leaver")];
  await signUp(page, ownerEmail);
  const leaverContext = await browser.newContext();
  const leaver = await leaverContext.newPage();
  await signUp(leaver, leaverEmail);
  const slug = await e2eTeam("No script", ownerEmail, [[leaverEmail, "developer"]]);
  await e2eAdmin(["service-account:create", "--team", slug, "--name", "nightly"]);
  await leaver.goto(`/dashboard/${slug}`);
  const secret = await createKey(leaver, "nightly build");
  await leaverContext.close();

  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const owner = await noScript.newPage();
  await owner.goto("/sign-in");
  await owner.getByLabel("Email").fill(ownerEmail);
  await owner.getByLabel("Password").fill(PASSWORD);
  await owner.getByRole("button", { name: "Sign in" }).click();
  await owner.goto(`/dashboard/${slug}/members`);
  await owner.getByRole("link", { name: `Remove ${leaverEmail}` }).click();
  const choice = owner.getByLabel("What happens to “nightly build”");
  await expect(choice.locator("option")).toHaveText([
    "Revoke it: it stops working at once",
    "Hand it to nightly and rotate it (recommended): the new secret is shown here",
    "Hand it to nightly as it is: they still know its secret",
  ]);
  await choice.selectOption({ label: "Hand it to nightly as it is: they still know its secret" });
  await owner.getByRole("button", { name: `Remove ${leaverEmail}` }).click();
  await expect(owner.getByRole("status").filter({ hasText: "not a member" })).toHaveText(
    "That person is not a member of this team (any more). Back to the members",
  );
  expect(await status(owner.request, secret)).toEqual([200, null]);
  await owner.goto(`/dashboard/${slug}/members`);
  await expect(owner.getByTestId("member-row")).toHaveCount(1);
  await noScript.close();
});
