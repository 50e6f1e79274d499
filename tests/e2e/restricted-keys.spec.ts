// Restricted keys as a user makes them: a read-only key, an allowlisted key,
// production expiry by default, and scopes edited on the key's page.
import { expect, test } from "@playwright/test";
import { choose, keyRow, saveNewSecret, signUp, uniqueEmail } from "./helpers";

const chatBody = { model: "keyport-sandbox-mini", messages: [{ role: "user", content: "Hello" }] };

test("a Read only key lists the catalog and is refused a chat completion, naming the scope", async ({ page }) => {
  await signUp(page, uniqueEmail("read-only"));
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an API key" });
  await dialog.getByLabel("Label").fill("dashboards");
  await expect(dialog.getByText("Can call all 13 routes, and any added later")).toBeVisible();
  await dialog.getByRole("radio", { name: /Read only/ }).check();
  await dialog.getByText("Can call 6 of 13 routes").click();
  await expect(dialog.getByText("GET /api/v1/models")).toBeVisible();
  await expect(dialog.getByText("POST /api/v1/chat/completions")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Create key" }).click();
  const secret = await saveNewSecret(page);
  await expect(keyRow(page, "dashboards").getByTestId("key-access")).toHaveText("Read only");

  const headers = { Authorization: `Bearer ${secret}` };
  expect((await page.request.get("/api/v1/models", { headers })).status()).toBe(200);
  const refused = await page.request.post("/api/v1/chat/completions", { headers, data: chatBody });
  expect(refused.status()).toBe(403);
  expect(refused.headers()["www-authenticate"]).toBe(
    'Bearer realm="keyport", error="insufficient_scope", scope="models:invoke"',
  );
  expect((await refused.json()).error).toMatchObject({ code: "insufficient_scope", message: /models:invoke/ });
});

test("an allowlist entry that is not an address is refused on its field, keeping everything typed", async ({
  page,
}) => {
  await signUp(page, uniqueEmail("allowlist"));
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an API key" });
  await dialog.getByLabel("Label").fill("office only");
  await dialog.getByRole("radio", { name: /Chosen scopes/ }).check();
  await dialog.getByRole("checkbox", { name: /catalog:read/ }).check();
  const allowlist = dialog.getByLabel("IP allowlist (optional)");
  await allowlist.fill("203.0.113.0/24\n10.0.0.300");
  await dialog.getByRole("button", { name: "Create key" }).click();

  await expect(allowlist).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByText("“10.0.0.300” is not an IPv4 or IPv6 address or CIDR range.").first()).toBeVisible();
  await expect(allowlist).toBeFocused();
  await expect(dialog.getByLabel("Label")).toHaveValue("office only");
  await expect(dialog.getByRole("checkbox", { name: /catalog:read/ })).toBeChecked();

  // Fixed: a key that works only from 203.0.113.0/24, and this browser is not there.
  await allowlist.fill("203.0.113.0/24\n2001:db8::/32");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const secret = await saveNewSecret(page);
  await expect(keyRow(page, "office only").getByTestId("key-access")).toHaveText(
    "catalog:read · IP allowlist: 2 ranges",
  );
  const response = await page.request.get("/api/v1/models", { headers: { Authorization: `Bearer ${secret}` } });
  expect(response.status()).toBe(403);
  expect((await response.json()).error.code).toBe("ip_not_allowed");
});

test("a production key expires in 90 days unless the user chooses never, which warns", async ({ page }) => {
  await signUp(page, uniqueEmail("prod-expiry"));
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an API key" });
  await expect(dialog.getByLabel("Expires")).toContainText("Never");
  await dialog.getByLabel(/Production/).check();
  await expect(dialog.getByLabel("Expires")).toContainText("In 90 days");
  await expect(dialog.getByRole("note")).toHaveCount(0);
  await choose(page, dialog.getByLabel("Expires"), "Never");
  await expect(dialog.getByRole("note")).toContainText("never expires keeps working wherever it is copied");
  // A rate limit above Production's default (600) is refused on its field.
  await dialog.getByLabel("Label").fill("forever");
  await dialog.getByLabel(/Rate limit/).fill("601");
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(dialog.getByText(/Production keys allow at most 600 requests per minute/).first()).toBeVisible();
  await expect(dialog.getByLabel(/Rate limit/)).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByLabel("Expires")).toContainText("Never");
  await dialog.getByLabel(/Rate limit/).fill("120");
  await dialog.getByRole("button", { name: "Create key" }).click();
  await saveNewSecret(page);
  await expect(keyRow(page, "forever")).toContainText("120 per minute");
});

test("scopes edited on the key page hold at once and the activity log shows the change", async ({ page }) => {
  await signUp(page, uniqueEmail("edit-scopes"));
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an API key" });
  await dialog.getByLabel("Label").fill("worker");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const secret = await saveNewSecret(page);
  const headers = { Authorization: `Bearer ${secret}` };
  expect((await page.request.post("/api/v1/chat/completions", { headers, data: chatBody })).status()).toBe(200);

  await page.getByRole("link", { name: "worker" }).click();
  const access = page.getByRole("region", { name: "Access" });
  await expect(access).toContainText("All");
  await access.getByRole("button", { name: "Edit access of “worker”" }).click();
  await access.getByRole("radio", { name: /Chosen scopes/ }).check();
  // Nothing ticked is refused on the scopes, not silently saved as "no access".
  await access.getByRole("button", { name: "Save access" }).click();
  await expect(access.getByText("Choose at least one scope, or choose All.").first()).toBeVisible();
  await access.getByRole("checkbox", { name: /catalog:read/ }).check();
  await access.getByLabel(/Rate limit/).fill("30");
  await access.getByRole("button", { name: "Save access" }).click();
  await expect(page.getByTestId("toast")).toContainText("Saved what “worker” can do");
  await expect(access.getByRole("button", { name: "Edit access of “worker”" })).toBeFocused();
  await expect(access).toContainText("catalog:read");
  await expect(access).toContainText("30 per minute");

  const refused = await page.request.post("/api/v1/chat/completions", { headers, data: chatBody });
  expect((await refused.json()).error.code).toBe("insufficient_scope");
  const listed = await page.request.get("/api/v1/models", { headers });
  expect(listed.headers()["ratelimit-limit"]).toBe("30");

  await page.reload();
  const change = page.getByTestId("activity-row").filter({ hasText: "Key access changed" });
  await expect(change).toContainText("Scopes: all → catalog:read");
  await expect(change).toContainText("Rate limit: default → 30");
});
