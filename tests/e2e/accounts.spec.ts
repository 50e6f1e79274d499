import { expect, test } from "@playwright/test";
import { PASSWORD, personalTeamUrl, SIGN_UP_SUBJECT, signIn, signOut, signUp, uniqueEmail } from "./helpers";
import { e2eOutbox, linkIn, mailTo, waitForMail } from "./outbox";

test("sign up, sign out, sign in, and end another session from the account page", async ({ page, browser }) => {
  const email = uniqueEmail("ada");
  await signUp(page, email);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API keys");
  await expect(page.getByText("You have no API keys in use.")).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  const signedOutCookie = (await page.context().cookies()).find((c) => c.name === "keyport.session");
  expect(signedOutCookie).toBeTruthy();
  await signOut(page);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fdashboard$/);

  // The cookie from before sign-out, sent again by hand, opens nothing.
  const replay = await browser.newContext();
  await replay.addCookies([signedOutCookie!]);
  const replayed = await replay.request.get("/dashboard", { maxRedirects: 0 });
  expect(replayed.status()).toBe(307);
  expect(await (await replay.request.get("/api/auth/session")).json()).toEqual({});
  await replay.close();

  await signIn(page, email);
  await expect(page.getByText("You have no API keys in use.")).toBeVisible();

  // A second browser signs in as the same user: that is the other session.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, email);
  const otherCookies = await other.cookies();
  expect(otherCookies.find((c) => c.name === "keyport.session")).toMatchObject({
    httpOnly: true,
    sameSite: "Lax",
    path: "/",
  });

  await page.goto("/account");
  const rows = page.getByTestId("session-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: "This device" })).toHaveCount(1);
  await expect(rows.first()).toContainText(/Chrome/);
  await rows.filter({ hasNotText: "This device" }).getByRole("button", { name: "End session" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("This device");

  // The ended session's cookie is refused: the other browser is sent to sign in, and told why.
  await otherPage.goto("/dashboard");
  await expect(otherPage).toHaveURL(/\/sign-in/);
  const notice = otherPage.getByRole("status").filter({ hasText: "You were signed out from another device." });
  await expect(notice).toContainText(/ended this session \d+ \w+ \d{4}, \d\d:\d\d UTC/);
  // It says when, not from where: the holder of an ended cookie may be who it was ended to keep out.
  await expect(notice).not.toContainText(/127\.0\.0\.1|::1|Chrome/);
  const session = await otherPage.request.get("/api/auth/session");
  expect(await session.json()).toEqual({});
  await other.close();
});

test("sign-up and sign-in work with JavaScript off, and no password reaches a URL", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  const email = uniqueEmail("nojs");

  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("too short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator("form").getByRole("alert")).toHaveText("Use at least 10 characters.");
  await expect(page.getByLabel("Email")).toHaveValue(email); // kept, though the page was rendered again
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/sign-up\/check-inbox$/);
  const [mail] = await waitForMail(e2eOutbox(), email, SIGN_UP_SUBJECT);
  const link = linkIn(mail!, "/sign-up/confirm");
  await page.goto(`${link.pathname}${link.search}`);
  await page.getByLabel("Password").fill("not what I chose");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator("form").getByRole("alert")).toContainText("That is not the password you chose");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(personalTeamUrl());
  await expect(page.getByText(email)).toBeVisible();

  await context.clearCookies();
  await page.goto("/sign-in?callbackUrl=%2Faccount");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("form").getByRole("alert")).toHaveText("The email or password is not right.");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Password")).toHaveValue("");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/account$/);

  expect(urls.filter((url) => url.includes("password") || url.includes(encodeURIComponent(PASSWORD)))).toEqual([]);
  expect(urls.filter((url) => url.includes(encodeURIComponent(email)))).toEqual([]);
  await context.close();
});

test("a forgotten password is reset from the mailed link with JavaScript off, the reset signs nobody in, and the activity says so", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const email = uniqueEmail("reset");
  await signUp(page, email);
  await context.clearCookies();

  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send a reset link" }).click();
  await expect(page.getByText("If an account exists for that address, we sent a link")).toBeVisible();
  const [mail] = await waitForMail(e2eOutbox(), email, "Reset your Keyport password");
  const link = linkIn(mail!, "/reset-password");
  await page.goto(`${link.pathname}${link.search}`);
  await page.getByLabel("New password").fill("tangerine umbrella quartz");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page).toHaveURL(/\/sign-in\?reset=1$/);
  expect(await context.cookies()).toEqual([]);

  // The link worked once.
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.locator("main [role=alert]")).toContainText("This reset link was already used");
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("tangerine umbrella quartz");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(personalTeamUrl());

  // The account's activity says it in words (lib/activity-events.ts), never as the audit's codes.
  await page.goto("/account");
  const rows = page.getByTestId("activity-row");
  await expect(rows.filter({ hasText: /^Password reset from a mailed link/ })).toHaveCount(1);
  await expect(rows.first()).toContainText("Signed in");
  for (const text of await rows.allInnerTexts()) expect(text).not.toMatch(/\bauth\.[a-z_]+/);
  await context.close();
});

test("a wrong password and an unknown email get the same message", async ({ page }) => {
  const email = uniqueEmail("grace");
  await signUp(page, email);
  await signOut(page);

  for (const [address, password] of [
    [email, "not the right password"],
    [uniqueEmail("nobody"), PASSWORD],
  ] as const) {
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill(address);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("form").getByRole("alert")).toHaveText("The email or password is not right.");
  }
});

test("sign-up explains each password rule, and answers a known address exactly as a new one", async ({ page }) => {
  const email = uniqueEmail("rules");
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator("form").getByRole("alert")).toHaveText("Use at least 10 characters.");
  await page.getByLabel("Password").fill("x".repeat(257));
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator("form").getByRole("alert")).toHaveText("Use at most 256 characters.");

  await signUp(page, email);
  await signOut(page);

  // The same page for the known address (written differently) and for a new one.
  const answers: string[] = [];
  for (const address of [`  ${email.toUpperCase()} `, uniqueEmail("fresh")]) {
    await page.goto("/sign-up");
    await page.getByLabel("Email").fill(address);
    await page.getByLabel("Password").fill("another long passphrase");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/sign-up\/check-inbox$/);
    answers.push(await page.locator("main").innerText());
  }
  expect(answers[0]).toContain("Check your inbox");
  expect(answers[1]).toBe(answers[0]);

  // The owner of the known address is told by mail, with a way in, and nothing changed.
  const [note] = await waitForMail(e2eOutbox(), email, "You already have a Keyport account");
  expect(linkIn(note!, "/forgot-password").pathname).toBe("/forgot-password");
  expect(await mailTo(e2eOutbox(), email)).toHaveLength(2); // the sign-up link, then this note
  await signIn(page, email);
});

test("the sessions list shows the socket's address, not one a client claims", async ({ browser }) => {
  const context = await browser.newContext({
    extraHTTPHeaders: { "x-keyport-peer-ip": "203.0.113.66", "x-forwarded-for": "203.0.113.77" },
  });
  const page = await context.newPage();
  await signUp(page, uniqueEmail("spoof"));
  await page.goto("/account");
  const row = page.getByTestId("session-row").first();
  await expect(row).toContainText(/127\.0\.0\.1|::1/);
  await expect(row).not.toContainText("203.0.113");
  await context.close();
});
