// A key found in public, handed in through the report form by a stranger
// with JavaScript off: it stops working at once, and its owner sees it on the
// dashboard (with where it was found) until they dismiss the notice.
import { expect, test } from "@playwright/test";
import { generateApiKey } from "../../lib/keys/format";
import { createKey, expectAccessibleAtBothWidths, keyRow, saveNewSecret, signUp, uniqueEmail } from "./helpers";

test("a stranger reports a key with JavaScript off; the owner sees it revoked and dismisses the notice", async ({
  page,
  browser,
}) => {
  await signUp(page, uniqueEmail("reported"));
  const secret = await createKey(page, "build server");
  const headers = { Authorization: `Bearer ${secret}` };
  expect((await page.request.get("/api/v1/models", { headers })).status()).toBe(200);

  const stranger = await browser.newContext({ javaScriptEnabled: false });
  const form = await stranger.newPage();
  await form.goto("/report-a-key");
  // Pasted as keys are found in the wild: a line of a .env file, quoted.
  await form.getByLabel("The key you found").fill(`# production\nKEYPORT_KEY="${secret}"\n`);
  await form.getByLabel("Where you found it (optional)").fill("https://gist.example/abc123");
  await form.getByRole("button", { name: "Report this key" }).click();
  await expect(form.getByRole("status")).toContainText(
    "We read 1 Keyport key in what you pasted. If it was live, it no longer works",
  );
  // Made-up keys (a JSON config holding two) get the same answer for their count: the form is no oracle.
  await form.goto("/report-a-key");
  const config = JSON.stringify({ dev: generateApiKey("dev"), prod: generateApiKey("prod") });
  await form.getByLabel("The key you found").fill(config);
  await form.getByRole("button", { name: "Report this key" }).click();
  await expect(form.getByRole("status")).toContainText("We read 2 Keyport keys in what you pasted.");
  // Text with no key in it is not thanked for.
  await form.goto("/report-a-key");
  await form.getByLabel("The key you found").fill("hello world");
  await form.getByRole("button", { name: "Report this key" }).click();
  await expect(form.getByRole("alert")).toContainText("We found no Keyport key in what you pasted.");
  await stranger.close();

  // The revocation runs once the answer is sent: the key is refused from then on.
  await expect.poll(async () => (await page.request.get("/api/v1/models", { headers })).status()).toBe(401);

  await page.goto("/dashboard");
  const notice = page.getByTestId("reported-leaks");
  await expect(notice).toContainText("A key was found in public and revoked");
  await expect(notice).toContainText("reported through the public report form");
  await expect(notice).toContainText("Found at https://gist.example/abc123");
  await notice.getByRole("button", { name: "Dismiss the notice about “build server”" }).click();
  await expect(page.getByTestId("reported-leaks")).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("reported-leaks")).toHaveCount(0);

  await page.goto("/dashboard/activity");
  await expect(page.getByTestId("activity-row").first()).toContainText("Reported through the public report form");
  await expect(page.getByTestId("activity-row").first()).toContainText(
    "By Keyport, on a report through the public form",
  );
});

test("a key inside a URL or a log line is read from the paste and stops working; the answer passes axe", async ({
  page,
  browser,
}) => {
  await signUp(page, uniqueEmail("reported-shapes"));
  const inUrl = await createKey(page, "callback url");
  const inLog = await createKey(page, "proxy log");
  const status = async (secret: string) =>
    (await page.request.get("/api/v1/models", { headers: { Authorization: `Bearer ${secret}` } })).status();
  // Control: both keys work until they are reported.
  expect(await status(inUrl)).toBe(200);
  expect(await status(inLog)).toBe(200);

  // With JavaScript on (the test above has it off): the answer is the same page either way.
  const stranger = await browser.newContext();
  const form = await stranger.newPage();
  const shapes = [
    { shape: "a URL", secret: inUrl, pasted: `https://example.com/cb?api_key=${inUrl}` },
    { shape: "a log line", secret: inLog, pasted: `2026-11-28T05:00:00Z INFO auth header=Bearer ${inLog}` },
  ];
  for (const { shape, secret, pasted } of shapes) {
    await form.goto("/report-a-key");
    await form.getByLabel("The key you found").fill(pasted);
    await form.getByRole("button", { name: "Report this key" }).click();
    await expect(form.getByRole("status"), shape).toContainText(
      "We read 1 Keyport key in what you pasted. If it was live, it no longer works",
    );
    // The answer after a paste: light and dark, at 1280 and 390 px (once is enough: it is the same answer).
    if (shape === "a URL") await expectAccessibleAtBothWidths(form, "the report page's answer");
    await expect.poll(() => status(secret), { message: `the key in ${shape}` }).toBe(401);
  }
  await stranger.close();
});

test("a decoy key made in the dashboard never works, and its use shows on the dashboard and in the activity", async ({
  page,
}) => {
  await signUp(page, uniqueEmail("decoy"));
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an API key" });
  await dialog.getByLabel("Label").fill("ci decoy");
  // Control: before it is a decoy, the dialog asks for an expiry and access.
  await expect(dialog.getByLabel("Expires")).toBeVisible();
  await dialog.getByLabel(/Decoy key/).check();
  // A decoy never works: the dialog asks only for its label (and which prefix it wears).
  await expect(dialog.getByLabel("Expires")).toHaveCount(0);
  await expect(dialog.getByText("IP allowlist (optional)")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Place it where a real key would sit");
  await expect(page.getByRole("alertdialog")).not.toContainText("environment variable");
  const secret = await saveNewSecret(page);
  // Its row says what it is, not "Active".
  await expect(keyRow(page, "ci decoy")).toContainText("Never works; any use alerts you");
  await expect(keyRow(page, "ci decoy")).not.toContainText("Active");

  const response = await page.request.get("/api/v1/models", {
    headers: { Authorization: `Bearer ${secret}`, "User-Agent": "attacker/1.0" },
  });
  expect(response.status()).toBe(401);
  expect((await response.json()).error.code).toBe("invalid_api_key");

  const row = keyRow(page, "ci decoy");
  await expect(async () => {
    await page.goto("/dashboard");
    await expect(row).toContainText("Decoy used once", { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(row).toContainText("Decoy");
  await page.goto("/dashboard/activity");
  await expect(page.getByTestId("activity-row").first()).toContainText("Decoy key used");
  await expect(page.getByTestId("activity-row").first()).toContainText("list_models");
});
