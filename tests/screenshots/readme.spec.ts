// `npm run screenshots`: the README's three pictures (docs/screenshots/), from
// the same production build and throw-away server as the end-to-end tests.
import path from "node:path";
import { expect, test } from "@playwright/test";
import { e2eAdmin, e2eTeam } from "../e2e/e2e-admin";
import { createKey, signUp, uniqueEmail } from "../e2e/helpers";
import { e2eOutbox, linkIn, waitForMail } from "../e2e/outbox";
import { buildScene, shoot } from "./scene";
import { enrolTwoFactor } from "../e2e/two-factor-helpers";
import { generateApiKey } from "../../lib/keys/format";

// npm runs scripts from the project root.
const OUT = path.resolve("docs", "screenshots");

test("the README's screenshots", async ({ page }) => {
  const { keyPage } = await buildScene(page);
  await page.goto("/dashboard");
  await expect(page.getByTestId("key-row")).toHaveCount(4);
  await shoot(page, path.join(OUT, "key-list.png"));

  await page.goto(keyPage);
  // The usage buffer flushes every second.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("usage-totals")).toContainText("10 requests", { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await shoot(page, path.join(OUT, "key-page.png"));

  await page.goto("/docs/authentication");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await shoot(page, path.join(OUT, "docs-authentication.png"));
});

// A team with odd inputs: a 64-character name without spaces, Unicode, and members with long addresses.
const TEAM_NAME = "Équipe-Données-Paiements-東京-platform-reliability-and-billing-api";
// A service account's name of 64 characters, without spaces, with Unicode.
const SERVICE_ACCOUNT = "Déploiements-東京-ci-runner-for-the-platform-reliability-and-billing";

test("the team switcher, the members page and the team's activity, at 1280 and 390 px, light and dark", async ({
  page,
  browser,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const owner = `grace-${Date.now()}@example.com`;
  await signUp(page, owner);
  const others: [string, string][] = [
    [uniqueEmail("a-rather-long-address-of-the-platform-admin"), "admin"],
    [uniqueEmail("dev"), "developer"],
    [uniqueEmail("viewer"), "viewer"],
  ];
  for (const [email] of others) {
    const context = await browser.newContext();
    await signUp(await context.newPage(), email);
    await context.close();
  }
  const slug = await e2eTeam(TEAM_NAME.slice(0, 64), owner, others);
  await e2eTeam("Payments", owner);
  await page.goto(`/dashboard/${slug}`);
  await createKey(page, "shared billing");
  // A service account, and a key of the developer's that their removal would revoke or hand to it.
  await e2eAdmin(["service-account:create", "--team", slug, "--name", SERVICE_ACCOUNT.slice(0, 64)]);
  await e2eAdmin([
    "key:create",
    "--team",
    slug,
    "--email",
    others[1]![0],
    "--env",
    "dev",
    "--label",
    "nightly tests — 夜間",
  ]);
  // And a key of the service account that the developer made: they know its secret.
  await e2eAdmin([
    "key:create",
    "--team",
    slug,
    "--service-account",
    SERVICE_ACCOUNT.slice(0, 64),
    "--email",
    others[1]![0],
    "--env",
    "dev",
    "--label",
    "deploy bot",
  ]);
  // An invitation waiting, to a long address, and its link as the invited person opens it.
  const invited = uniqueEmail("an-invited-person-with-a-rather-long-address");
  await e2eAdmin(["team:invite", "--team", slug, "--email", invited, "--role", "developer"]);
  const [invitation] = await waitForMail(
    e2eOutbox(),
    invited,
    `You are invited to the team ${TEAM_NAME.slice(0, 64)} on Keyport`,
  );
  const invitationLink = linkIn(invitation!, "/invitations/").pathname;
  const stranger = await (await browser.newContext()).newPage();
  for (const colorScheme of ["light", "dark"] as const) {
    for (const width of [1280, 390]) {
      const tag = `${width}-${colorScheme}`;
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.goto(`/dashboard/${slug}`);
      await page.getByTestId("team-switcher").click();
      await expect(page.getByRole("menuitem", { name: "New team" })).toBeVisible();
      await shoot(page, path.join(OUT, `team-switcher-${tag}.png`));
      await page.keyboard.press("Escape");
      await page.goto(`/dashboard/${slug}/members`);
      await expect(page.getByTestId("member-row")).toHaveCount(4);
      await expect(page.getByTestId("service-account-row")).toHaveCount(1);
      await expect(page.getByTestId("invitation-row")).toHaveCount(1);
      await shoot(page, path.join(OUT, `team-members-${tag}.png`), { fullPage: true });
      // The removal page of the developer: their key, and what may happen to it.
      await page.getByRole("link", { name: `Remove ${others[1]![0]}` }).click();
      await expect(page.getByTestId("departing-key")).toHaveCount(2);
      await shoot(page, path.join(OUT, `team-remove-member-${tag}.png`), { fullPage: true });
      await stranger.emulateMedia({ colorScheme });
      await stranger.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await stranger.goto(invitationLink);
      await expect(stranger.getByLabel("Choose a password")).toBeVisible();
      await shoot(stranger, path.join(OUT, `team-invitation-${tag}.png`), { fullPage: true });
      await page.goto(`/dashboard/${slug}/activity`);
      await expect(page.getByTestId("activity-row")).toHaveCount(9);
      await shoot(page, path.join(OUT, `team-activity-${tag}.png`), { fullPage: true });
    }
  }
});

// A label of 64 characters without spaces, with Unicode: the longest the form takes.
const LONG_LABEL = "billing-worker-東京-données-paiements-for-the-platform-reliability-x".slice(0, 64);

test("a team's settings and its policies in the key form, at 1280 and 390 px, light and dark", async ({
  page,
  browser,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const owner = uniqueEmail("policy-owner");
  const developerEmail = uniqueEmail("policy-developer");
  await signUp(page, owner);
  const developerContext = await browser.newContext();
  const developer = await developerContext.newPage();
  await signUp(developer, developerEmail);
  const slug = await e2eTeam(TEAM_NAME.slice(0, 64), owner, [[developerEmail, "developer"]]);
  // Keys made before the policy: they outlive it, and the settings page lists them.
  for (const label of [LONG_LABEL, "nightly export — 夜間"]) {
    await e2eAdmin(["key:create", "--team", slug, "--email", owner, "--env", "prod", "--label", label]);
  }
  await e2eAdmin([
    "team:policy",
    "--team",
    slug,
    "--production-keys",
    "admins",
    "--max-lifetime-days-prod",
    "30",
    "--max-lifetime-days-dev",
    "14",
    "--prod-default-scopes",
    "read-only",
    "--prod-default-allow-ip",
    "203.0.113.0/24,2001:db8::/32",
  ]);
  for (const colorScheme of ["light", "dark"] as const) {
    for (const width of [1280, 390]) {
      const tag = `${width}-${colorScheme}`;
      for (const p of [page, developer]) {
        await p.emulateMedia({ colorScheme });
        await p.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      }
      await page.goto(`/dashboard/${slug}/settings`);
      await expect(page.getByTestId("outliving-keys").getByRole("listitem")).toHaveCount(2);
      await shoot(page, path.join(OUT, `team-settings-${tag}.png`), { fullPage: true });
      await developer.goto(`/dashboard/${slug}`);
      await developer.getByRole("button", { name: "Create key" }).click();
      const dialog = developer.getByRole("dialog", { name: "Create an API key" });
      await expect(dialog.getByTestId("lifetime-policy")).toBeVisible();
      await expect(dialog.getByTestId("production-policy")).toBeVisible();
      await shoot(developer, path.join(OUT, `team-policy-key-form-${tag}.png`));
    }
  }
  await developerContext.close();
});

test("a request for a production key: the dialog, the pending request and the reveal, at 1280 and 390 px, light and dark", async ({
  page: admin,
  browser,
}) => {
  const adminEmail = uniqueEmail("approver");
  const developerEmail = uniqueEmail("requester");
  await signUp(admin, adminEmail);
  const developerContext = await browser.newContext();
  const developer = await developerContext.newPage();
  await signUp(developer, developerEmail);
  const slug = await e2eTeam(TEAM_NAME.slice(0, 64), adminEmail, [[developerEmail, "developer"]]);
  await e2eAdmin(["team:policy", "--team", slug, "--production-keys", "approval", "--max-lifetime-days-prod", "90"]);
  const reason =
    "Le service de facturation passe en production lundi; 東京 region first. The payment provider calls our webhook with this key, read-only.";
  const combos = (["light", "dark"] as const).flatMap((colorScheme) =>
    [1280, 390].map((width) => ({ colorScheme, width, tag: `${width}-${colorScheme}` })),
  );
  const frame = async (p: typeof admin, combo: (typeof combos)[number]) => {
    await p.emulateMedia({ colorScheme: combo.colorScheme });
    await p.setViewportSize({ width: combo.width, height: combo.width === 390 ? 844 : 800 });
  };

  for (const combo of combos) {
    await frame(developer, combo);
    await developer.goto(`/dashboard/${slug}`);
    await developer.getByRole("button", { name: "Create key" }).click();
    await developer
      .getByRole("dialog", { name: "Create an API key" })
      .getByLabel(/Production/)
      .check();
    const dialog = developer.getByRole("dialog", { name: "Request a production key" });
    await dialog.getByLabel("Label").fill(LONG_LABEL);
    await dialog.getByLabel("Why the team needs it").fill(reason);
    await shoot(developer, path.join(OUT, `key-request-form-${combo.tag}.png`));
    // The last one is sent: the request the admin then decides.
    if (combo === combos.at(-1)) {
      await dialog.getByRole("button", { name: "Send request" }).click();
      await expect(developer.getByRole("heading", { level: 1 })).toContainText(LONG_LABEL);
    }
  }
  const requestPath = new URL(developer.url()).pathname;

  for (const combo of combos) {
    await frame(admin, combo);
    await admin.goto(requestPath);
    await expect(admin.getByRole("button", { name: "Approve" })).toBeVisible();
    await shoot(admin, path.join(OUT, `key-request-pending-${combo.tag}.png`), { fullPage: true });
  }
  await admin.getByLabel("Comment").fill("D’accord pour le lancement — 了解.");
  await admin.getByRole("button", { name: "Approve" }).click();
  await expect(admin.getByText("Approved: ready to reveal")).toBeVisible();

  for (const combo of combos) {
    await frame(developer, combo);
    await developer.goto(requestPath);
    await expect(developer.getByRole("button", { name: "Reveal key" })).toBeVisible();
    await shoot(developer, path.join(OUT, `key-request-reveal-${combo.tag}.png`), { fullPage: true });
  }
  await developerContext.close();
});

test("a team that requires two-factor: what a member without it sees, and the members page, at 1280 and 390 px, light and dark", async ({
  page: owner,
  browser,
}) => {
  const ownerEmail = uniqueEmail("2fa-owner");
  const memberEmail = uniqueEmail("2fa-member");
  await signUp(owner, ownerEmail);
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await signUp(member, memberEmail);
  const slug = await e2eTeam(TEAM_NAME.slice(0, 64), ownerEmail, [[memberEmail, "developer"]]);
  for (const label of [LONG_LABEL, "nightly export — 夜間"]) {
    await e2eAdmin(["key:create", "--team", slug, "--email", memberEmail, "--env", "dev", "--label", label]);
  }
  await enrolTwoFactor(owner);
  await e2eAdmin(["team:policy", "--team", slug, "--require-two-factor", "on"]);
  for (const colorScheme of ["light", "dark"] as const) {
    for (const width of [1280, 390]) {
      const tag = `${width}-${colorScheme}`;
      for (const p of [owner, member]) {
        await p.emulateMedia({ colorScheme });
        await p.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      }
      await member.goto(`/dashboard/${slug}/members`);
      await expect(member.getByTestId("two-factor-required")).toBeVisible();
      await expect(member.getByTestId("key-row")).toHaveCount(2);
      await shoot(member, path.join(OUT, `team-two-factor-required-${tag}.png`), { fullPage: true });
      await owner.goto(`/dashboard/${slug}/members`);
      await expect(owner.getByTestId("members-without-two-factor")).toBeVisible();
      await shoot(owner, path.join(OUT, `team-members-without-two-factor-${tag}.png`), { fullPage: true });
    }
  }
  await memberContext.close();
});

test("the key search, the activity, recovery codes and the report page, at 1280 and 390 px, light and dark", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUp(page, uniqueEmail("issue35"));
  // A label of 64 characters with no space to break at, beside ordinary ones.
  const unbroken = `Ω${"abcdefghij".repeat(6)}xyz`;
  for (const label of [LONG_LABEL, unbroken, "billing cron", "nightly export — 夜間"]) await createKey(page, label);
  await page.getByRole("link", { name: "billing cron" }).click();
  await page.getByRole("button", { name: "Rename “billing cron”" }).click();
  await page.getByLabel("New label for “billing cron”").fill("billing cron (hourly)");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("billing cron (hourly)");
  const base = new URL(page.url()).pathname.replace(/\/keys\/.*$/, "");
  await enrolTwoFactor(page);
  for (const colorScheme of ["light", "dark"] as const) {
    for (const width of [1280, 390]) {
      const tag = `${width}-${colorScheme}`;
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.goto(`${base}?q=billing`);
      await expect(page.getByTestId("key-row")).toHaveCount(2);
      await shoot(page, path.join(OUT, `key-search-${tag}.png`), { fullPage: true });
      await page.goto(base);
      await expect(page.getByTestId("key-row")).toHaveCount(4);
      await shoot(page, path.join(OUT, `key-list-long-labels-${tag}.png`), { fullPage: true });
      await page.goto(`${base}/activity?kind=keys`);
      await expect(page.getByTestId("activity-row")).toHaveCount(5);
      await shoot(page, path.join(OUT, `activity-${tag}.png`), { fullPage: true });
      await page.goto("/account/two-factor");
      await page.getByRole("button", { name: "Make new recovery codes" }).click();
      await expect(page.getByTestId("recovery-codes").getByRole("listitem")).toHaveCount(10);
      await shoot(page, path.join(OUT, `recovery-codes-${tag}.png`), { fullPage: true });
      await page.goto("/report-a-key");
      // A well-formed key that belongs to no one, pasted as a line of a .env file.
      await page.getByLabel("The key you found").fill(`# .env\nKEYPORT_KEY="${generateApiKey("dev")}"\n`);
      await page.getByRole("button", { name: "Report this key" }).click();
      await expect(page.getByRole("status")).toContainText("We read 1 Keyport key");
      await shoot(page, path.join(OUT, `report-a-key-answer-${tag}.png`), { fullPage: true });
      await page.goto("/docs/managing-keys");
      await page.getByRole("combobox", { name: "Search the docs" }).fill("rotate");
      await expect(page.getByRole("listbox", { name: "Search results" }).getByRole("option").first()).toBeVisible();
      await page.getByRole("combobox", { name: "Search the docs" }).press("ArrowDown");
      await shoot(page, path.join(OUT, `docs-search-${tag}.png`));
    }
  }
});
