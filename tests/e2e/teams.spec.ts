// Teams in the browser: the switcher opens a team whose pages name its slug,
// a viewer sees the team's keys but cannot create one (the server refuses it
// too), and a removal shuts the removed person out at once.
import { expect, test, type Page } from "@playwright/test";
import { e2eTeam } from "./e2e-admin";
import { createKey, keyRow, signUp, uniqueEmail } from "./helpers";

const TEAM_NAME = "Payments — Ünïcödé platform team";

async function switchTo(page: Page, team: string) {
  await page.getByTestId("team-switcher").click();
  await page.getByRole("menuitem", { name: new RegExp(team) }).click();
}

test("the switcher, a viewer who cannot create, and a removal", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const [ownerEmail, viewerEmail] = [uniqueEmail("team-owner"), uniqueEmail("team-viewer")];
  await signUp(page, ownerEmail);
  const other = await browser.newContext();
  const viewer = await other.newPage();
  await signUp(viewer, viewerEmail);
  const slug = await e2eTeam(TEAM_NAME, ownerEmail, [[viewerEmail, "viewer"]]);

  // The owner switches to the team: its pages name its slug, and its key list starts empty.
  await page.goto("/dashboard");
  await expect(page.getByTestId("team-switcher")).toHaveAccessibleName(/Team: Personal/);
  await switchTo(page, TEAM_NAME);
  await expect(page).toHaveURL(new RegExp(`/dashboard/${slug}$`));
  await expect(page.getByTestId("team-switcher")).toHaveAccessibleName(`Team: ${TEAM_NAME}. Switch team`);
  await expect(page.getByText("This team has no API keys in use.")).toBeVisible();
  await createKey(page, "shared billing");
  await expect(keyRow(page, "shared billing")).toHaveCount(1);
  const keyId = (await keyRow(page, "shared billing").getAttribute("data-key-id"))!;
  // The owner's personal team does not list it.
  await switchTo(page, "Personal");
  await expect(page.getByText("You have no API keys in use.")).toBeVisible();
  // A link from before teams lands on the key's page in its team.
  await page.goto(`/dashboard/keys/${keyId}`);
  await expect(page).toHaveURL(`/dashboard/${slug}/keys/${keyId}`);

  // The viewer sees the team's key, and may not create one: the button says why.
  await viewer.goto(`/dashboard/${slug}`);
  await expect(keyRow(viewer, "shared billing")).toHaveCount(1);
  const create = viewer.getByRole("button", { name: "Create key" });
  await expect(create).toBeDisabled();
  await expect(viewer.getByText("Your role in this team (viewer) cannot create keys.")).toBeVisible();
  // Its row offers only "This key leaked" (the owner's, the control, offers every action), and its page says why.
  await viewer.getByRole("button", { name: "Actions for “shared billing”" }).click();
  await expect(viewer.getByRole("menuitem")).toHaveText(["This key leaked…"]);
  await viewer.keyboard.press("Escape");
  await page.goto(`/dashboard/${slug}`);
  await page.getByRole("button", { name: "Actions for “shared billing”" }).click();
  await expect(page.getByRole("menuitem")).toHaveText(["Rotate…", "This key leaked…", "Revoke…"]);
  await page.keyboard.press("Escape");
  await viewer.goto(`/dashboard/${slug}/keys/${keyId}`);
  await expect(viewer.getByTestId("role-note")).toContainText("Your role in this team (viewer) cannot change this key");
  await expect(viewer.getByRole("button", { name: /Rename/ })).toHaveCount(0);
  await page.goto(`/dashboard/${slug}/keys/${keyId}`);
  await expect(page.getByRole("button", { name: /Rename/ })).toHaveCount(1); // the control: the owner may
  await expect(page.getByTestId("role-note")).toHaveCount(0);
  // The team's activity names who made each change; where it came from is for admins and owners.
  await viewer.goto(`/dashboard/${slug}/activity`);
  const viewersRow = viewer.getByTestId("activity-row").first();
  await expect(viewersRow).toContainText(`By ${ownerEmail}`);
  await expect(viewersRow).not.toContainText("From ");
  await page.goto(`/dashboard/${slug}/activity`);
  await expect(page.getByTestId("activity-row").first()).toContainText(`By ${ownerEmail} · From `); // the control
  // The team's own chain: the owner may download it with its hashes; the viewer is offered no link, and refused.
  const download = page.getByRole("link", { name: "the whole log with its hashes (JSON)" });
  await expect(download).toHaveAttribute("href", `/dashboard/${slug}/activity/chain.json`);
  await expect(viewer.getByRole("link", { name: /the whole log with its hashes/ })).toHaveCount(0);
  const chain = await page.request.get(`/dashboard/${slug}/activity/chain.json`);
  expect(chain.status()).toBe(200);
  const exported = (await chain.json()) as { format: string; rows: { action: string; actorKind: string }[] };
  expect(exported.format).toBe("keyport.team-activity-chain.v1");
  expect(exported.rows.map((row) => [row.action, row.actorKind])).toEqual([
    ["team.created", "operator"],
    ["team.member_added", "operator"],
    ["key.created", "person"],
  ]);
  const refused = await viewer.request.get(`/dashboard/${slug}/activity/chain.json`);
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain("Your role in this team (viewer) does not allow this");
  // The control: in their personal team the same button works.
  await viewer.goto("/dashboard");
  await expect(viewer.getByRole("button", { name: "Create key" })).toBeEnabled();

  // The owner removes the viewer, from the members page through the removal page (they made no keys).
  await page.goto(`/dashboard/${slug}/members`);
  await expect(page.getByTestId("member-row")).toHaveCount(2);
  await page.getByRole("link", { name: `Remove ${viewerEmail}` }).click();
  await expect(page.getByText(`${viewerEmail} made no keys in use in this team.`)).toBeVisible();
  await page.getByRole("button", { name: `Remove ${viewerEmail}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Removed." })).toHaveText(
    "Removed. None of their keys was revoked.",
  );
  await page.getByRole("link", { name: "Back to the members" }).click();
  await expect(page.getByTestId("member-row")).toHaveCount(1);

  // The viewer's next request in that team is refused, as for a team that does not exist.
  const gone = await viewer.goto(`/dashboard/${slug}`);
  expect(gone!.status()).toBe(404);
  expect((await viewer.goto(`/dashboard/keys/${keyId}`))!.status()).toBe(404);
  await other.close();
});

test("a new team from the form: the address is proposed from the name, a bad one is refused on its field, and the team opens", async ({
  page,
}) => {
  await signUp(page, uniqueEmail("team-maker"));
  await page.getByTestId("team-switcher").click();
  await page.getByRole("menuitem", { name: "New team" }).click();
  await expect(page).toHaveURL("/dashboard/teams/new");
  const suffix = String(Date.now()).slice(-6);
  await page.getByLabel("Name").fill(`Ops & Infra ${suffix}`);
  const address = page.getByLabel("Address");
  await expect(address).toHaveValue(`ops-infra-${suffix}`);
  // A typed address that breaks the rules: the field says why, and what was typed stays.
  await address.fill("9-lives");
  await page.getByRole("button", { name: "Create team" }).click();
  // On the field itself (its hint says "starting with a letter" too, so the text alone could be found without it).
  await expect(address).toHaveAttribute("aria-invalid", "true");
  await expect(address).toHaveAccessibleDescription(/Use lowercase letters a to z, digits and hyphens/);
  await expect(page.getByLabel("Name")).toHaveValue(`Ops & Infra ${suffix}`);
  await address.fill(`ops-${suffix}`);
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page).toHaveURL(`/dashboard/ops-${suffix}`);
  await expect(page.getByTestId("team-switcher")).toHaveAccessibleName(`Team: Ops & Infra ${suffix}. Switch team`);
  await expect(page.getByText("This team has no API keys in use.")).toBeVisible();
});

test("a team's log names who acted whatever their browser claims, and shows a right-to-left rename in order", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const [ownerEmail, adminEmail] = [uniqueEmail("log-owner"), uniqueEmail("log-admin")];
  await signUp(page, ownerEmail);
  // The admin's browser says it is GitHub's secret scanning (attack review of team chains).
  const spoofing = await browser.newContext({ userAgent: "secret-scanning" });
  const admin = await spoofing.newPage();
  await signUp(admin, adminEmail);
  const slug = await e2eTeam("Log check", ownerEmail, [[adminEmail, "admin"]]);
  await admin.goto(`/dashboard/${slug}`);
  await createKey(admin, "אלף");
  await keyRow(admin, "אלף").getByRole("link", { name: "אלף" }).click();
  await admin.getByRole("button", { name: "Rename “אלף”" }).click();
  await admin.getByLabel("New label for “אלף”").fill("בית");
  await admin.getByRole("button", { name: "Save" }).click();
  await expect(admin.getByRole("heading", { level: 1 })).toHaveText("בית");

  await page.goto(`/dashboard/${slug}/activity`);
  const renamed = page.getByTestId("activity-row").filter({ hasText: "Key renamed" });
  await expect(renamed).toHaveCount(1); // the control: the row is there
  await expect(renamed).toContainText(`By ${adminEmail}`);
  await expect(renamed).not.toContainText("secret-scanning report");
  // Each name is isolated, so the old one stays left of the arrow.
  await expect(renamed.locator("bdi")).toHaveText(["אלף", "בית"]);
  const [from, to] = await renamed.locator("bdi").evaluateAll((names) => names.map((n) => n.getBoundingClientRect().x));
  expect(from!).toBeLessThan(to!);
  await spoofing.close();
});
