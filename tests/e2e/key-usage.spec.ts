// A key's usage as its owner sees it: requests made with the key show up, once
// the buffer has flushed, in the key list's 24-hour count, the chart's data
// table, the top routes and the request log (with the request ids the API
// answered with), a filter narrows the log, and the CSV downloads those rows.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { createKey, expectAccessible, keyRow, signUp, uniqueEmail } from "./helpers";

const USER_AGENT = "key-usage-e2e/1.0";

test("requests made with a key show on its page, filter in the log and download as CSV", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUp(page, uniqueEmail("usage"));
  const secret = await createKey(page, "usage e2e");
  const keyId = await keyRow(page, "usage e2e").getAttribute("data-key-id");
  expect(keyId).toMatch(/^key_/);

  const headers = { Authorization: `Bearer ${secret}`, "User-Agent": USER_AGENT };
  const ok: string[] = [];
  for (let i = 0; i < 2; i++) {
    const response = await page.request.get("/api/v1/models", { headers });
    expect(response.status()).toBe(200);
    ok.push(response.headers()["x-request-id"]!);
  }
  const bad = await page.request.post("/api/v1/chat/completions", {
    headers: { ...headers, "Content-Type": "application/json" },
    data: "{",
  });
  expect(bad.status()).toBe(400);
  const badId = bad.headers()["x-request-id"]!;

  // The buffer flushes every second: the list's count appears after a reload or two.
  await expect(async () => {
    await page.goto("/dashboard");
    await expect(keyRow(page, "usage e2e").getByTestId("key-requests-24h-cell")).toHaveText("3", { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });

  await page.getByRole("link", { name: "usage e2e" }).click();
  await expect(page.getByTestId("usage-totals")).toContainText("3 requests in the last 7 days: 2 2xx, 1 4xx, 0 5xx");

  // The chart's numbers, as screen readers get them: today is the last row.
  const table = page.getByRole("table", { name: "Requests per day in the last 7 days, by status class" });
  await expect(table.getByRole("row")).toHaveCount(8);
  await expect(table.getByRole("row").last().getByRole("cell")).toHaveText(["2", "1", "0", "3"]);

  const routes = page.getByTestId("top-routes").getByRole("row");
  await expect(routes).toHaveCount(2);
  await expect(routes.nth(0).getByRole("cell")).toHaveText(["list_models", "2", "66.7%"]);
  await expect(routes.nth(1).getByRole("cell")).toHaveText(["create_chat_completion", "1", "33.3%"]);
  await expect(page.getByTestId("top-ips").getByRole("row")).toHaveCount(1);

  // The log: newest first, each row with the request id the API sent back.
  const rows = page.getByTestId("request-row");
  await expect(rows).toHaveCount(3);
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-request-id")))).toEqual([
    badId,
    ok[1],
    ok[0],
  ]);
  const badRow = page.locator(`[data-request-id="${badId}"]`);
  await expect(badRow.getByTestId("request-route")).toHaveText("create_chat_completion");
  await expect(badRow.getByTestId("request-id")).toHaveText(badId);
  const cells = badRow.getByRole("cell");
  await expect(cells.nth(2)).toContainText("400");
  await expect(cells.nth(2)).toContainText("invalid_request");
  await expect(cells.nth(3)).toHaveText(/^\d+ ms$/);
  await expect(badRow.getByTestId("request-agent")).toHaveText(USER_AGENT);

  // The CSV of the range: a header and the same three rows.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${keyId}-usage-7d.csv`);
  const csv = readFileSync((await download.path())!, "utf8").split("\r\n");
  expect(csv[0]).toBe('"time","request_id","route","status","error_code","latency_ms","ip","user_agent"');
  // Text cells are quoted; these hold no comma or quote, so removing the quotes reads them.
  expect(csv.slice(1, -1).map((line) => line.replaceAll('"', "").split(",").slice(1, 5))).toEqual([
    [badId, "create_chat_completion", "400", "invalid_request"],
    [ok[1], "list_models", "200", ""],
    [ok[0], "list_models", "200", ""],
  ]);
  expect(csv.at(-1)).toBe("");

  // A filter is a GET form: the address keeps it, and the log shows only the 4xx.
  await page.getByLabel("Status").selectOption("4xx");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/[?&]status=4xx/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-request-id", badId);
  await page.getByLabel("Route").selectOption("list_models");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("No requests match these filters in this range.")).toBeVisible();

  // The range switch is a link: 24 hours in hourly rows.
  await page.getByRole("navigation", { name: "Usage range" }).getByRole("link", { name: "24 hours" }).click();
  await expect(page).toHaveURL(/[?&]usage=24h/);
  await expect(
    page.getByRole("table", { name: /Requests per hour in the last 24 hours/ }).getByRole("row"),
  ).toHaveCount(25);

  // With usage on it, the page still fits a phone and passes axe in both colour schemes.
  await page.goto(`/dashboard/keys/${keyId}`);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.getByTestId("usage-chart").locator("svg")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page, `key page with usage, 390 px, ${colorScheme}`);
  }
});
