// Two production instances (node server.mjs, the build from `npm test`) on
// one PostgreSQL database, and then on PostgreSQL with Redis: nothing that
// matters lives in one process. Run by `npm run test:services`.
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "@/lib/auth/accounts";
import { chromium, type Browser } from "@playwright/test";
import { db } from "@/lib/db";
import { createKey } from "@/lib/keys/lifecycle";
import { freePort, requireBuild, startInstance, stopInstances } from "../helpers/production-server";

async function newKey() {
  const user = await signUp(
    `instances-${Date.now()}-${Math.random()}@example.com`,
    "a long enough password",
    `instances-${Date.now()}`,
  );
  if (!user.ok) throw new Error(user.error);
  const actor = { userId: user.userId, ip: null, userAgent: null };
  return createKey(actor, { label: "two instances", environment: "dev", expiresAt: null });
}

const models = (base: string, key: string) =>
  fetch(`${base}/api/v1/models`, { headers: { Authorization: `Bearer ${key}` } });

let redis: ChildProcess | undefined;

beforeAll(requireBuild);

afterAll(() => {
  stopInstances();
  redis?.kill("SIGKILL");
});

describe.each([
  ["PostgreSQL", false],
  ["PostgreSQL and Redis", true],
])("two instances on %s", (_name, withRedis) => {
  let a: string;
  let b: string;

  beforeAll(async () => {
    const env: Record<string, string> = {
      DATABASE_URL: process.env.DATABASE_URL!,
      RATE_LIMIT_DEV_PER_MINUTE: "10",
      SIGN_UP_LIMIT_PER_HOUR: "100",
    };
    if (withRedis) {
      const port = await freePort();
      redis = spawn(
        "redis-server",
        ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        { stdio: "ignore" },
      );
      env.REDIS_URL = `redis://127.0.0.1:${port}`;
    }
    const [first, second] = await Promise.all([startInstance(env), startInstance(env)]);
    a = first.base;
    b = second.base;
  }, 60_000);

  /** Signs up on instance a in Chromium and creates a key there; answers the page and the key's secret. */
  async function keyFromDashboard(browser: Browser, label: string) {
    const page = await browser.newPage({ baseURL: a });
    await page.goto("/sign-up");
    await page.getByLabel("Email").fill(`two-${Date.now()}-${Math.random()}-${withRedis ? "r" : "p"}@example.com`);
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("dialog").getByLabel("Label").fill(label);
    await page.getByRole("dialog").getByRole("button", { name: "Create key" }).click();
    const reveal = page.getByRole("alertdialog");
    const apiKey = await reveal.getByTestId("new-secret").inputValue();
    await reveal.getByLabel("I have saved this key").check();
    await reveal.getByRole("button", { name: "Done" }).click();
    return { page, apiKey };
  }

  const withBrowser = async (work: (browser: Browser) => Promise<void>) => {
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"],
    });
    try {
      await work(browser);
    } finally {
      await browser.close();
    }
  };

  it("a key made read-only on one instance's key page is refused a write by the other on its next call", () =>
    withBrowser(async (browser) => {
      const { page, apiKey } = await keyFromDashboard(browser, "scoped across instances");
      const chat = () =>
        fetch(`${b}/api/v1/chat/completions`, {
          method: "POST",
          headers: { Authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "keyport-sandbox-mini", messages: [{ role: "user", content: "Hi" }] }),
        });
      expect((await chat()).status).toBe(200);

      await page.getByRole("link", { name: "scoped across instances" }).click();
      await page.getByRole("button", { name: "Edit access of “scoped across instances”" }).click();
      await page.getByRole("radio", { name: /Read only/ }).check();
      await page.getByRole("button", { name: "Save access" }).click();
      await page.getByTestId("toast").filter({ hasText: "Saved what" }).waitFor();

      const refused = await chat();
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("insufficient_scope");
      expect((await models(b, apiKey)).status).toBe(200);
    }));

  it("a key revoked in one instance's dashboard is refused by the other on its next call", () =>
    withBrowser(async (browser) => {
      const { page, apiKey } = await keyFromDashboard(browser, "across instances");
      expect((await models(b, apiKey)).status).toBe(200);

      await page.getByRole("button", { name: "Actions for “across instances”" }).click();
      await page.getByRole("menuitem", { name: "Revoke “across instances”" }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
      // The revoked key leaves the list of keys in use once the action has returned.
      await page.getByTestId("toast").filter({ hasText: "Revoked “across instances”" }).waitFor();
      const response = await models(b, apiKey);
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("revoked_api_key");
    }));

  it("usage recorded by both adds up in the request log and the hourly aggregates", async () => {
    const { secret: apiKey, key } = await newKey();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await models(i % 2 ? a : b, apiKey)).status);
    expect(statuses).toEqual(Array(8).fill(200));
    const row = await db.apiKey.findUniqueOrThrow({ where: { publicId: key.id }, select: { id: true } });
    // Each instance flushes its buffer every second.
    await expect
      .poll(
        async () => (await db.usageHourly.aggregate({ where: { keyId: row.id }, _sum: { count: true } }))._sum.count,
        {
          timeout: 10_000,
        },
      )
      .toBe(8);
    expect(await db.usageEvent.count({ where: { keyId: row.id } })).toBe(8);
  });

  it("the rate limit counts the requests sent to both", async () => {
    const { secret: apiKey } = await newKey();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await models(i % 2 ? a : b, apiKey)).status);
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});
