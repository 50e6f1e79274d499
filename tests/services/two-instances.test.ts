// Two production instances (node server.mjs, the build from `npm test`) on
// one PostgreSQL database, and then on PostgreSQL with Redis: nothing that
// matters lives in one process. Run by `npm run test:services`.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "@/lib/auth/accounts";
import { chromium } from "@playwright/test";
import { createKey } from "@/lib/keys/lifecycle";
import { projectRoot } from "../helpers/test-database";

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const children: ChildProcess[] = [];
const secret = randomBytes(32).toString("base64url");

async function startInstance(env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(projectRoot, "server.mjs")], {
    cwd: projectRoot,
    env: {
      ...process.env,
      ...env,
      NODE_ENV: "production",
      PORT: String(port),
      AUTH_SECRET: secret,
      WORKER_DISABLED: "1",
    },
    stdio: "ignore",
  });
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return base;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`instance on ${port} did not start`);
}

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

beforeAll(() => {
  if (!existsSync(path.join(projectRoot, ".next", "BUILD_ID")))
    throw new Error("Run `npx next build` first (npm test does).");
});

afterAll(() => {
  for (const child of children) child.kill("SIGTERM");
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
    [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
  }, 60_000);

  it("a key revoked in one instance's dashboard is refused by the other on its next call", async () => {
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"],
    });
    try {
      const page = await browser.newPage({ baseURL: a });
      await page.goto("/sign-up");
      await page.getByLabel("Email").fill(`two-${Date.now()}-${withRedis ? "r" : "p"}@example.com`);
      await page.getByLabel("Password").fill("a long enough password");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.waitForURL(/\/dashboard$/);
      await page.getByRole("button", { name: "Create key" }).click();
      await page.getByRole("dialog").getByLabel("Label").fill("across instances");
      await page.getByRole("dialog").getByRole("button", { name: "Create key" }).click();
      const reveal = page.getByRole("alertdialog");
      const apiKey = await reveal.getByTestId("new-secret").inputValue();
      await reveal.getByLabel("I have saved this key").check();
      await reveal.getByRole("button", { name: "Done" }).click();
      expect((await models(b, apiKey)).status).toBe(200);

      await page.getByRole("button", { name: "Actions for “across instances”" }).click();
      await page.getByRole("menuitem", { name: "Revoke “across instances”" }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
      // The revoked key leaves the list of keys in use once the action has returned.
      await page.getByTestId("toast").filter({ hasText: "Revoked “across instances”" }).waitFor();
      const response = await models(b, apiKey);
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("revoked_api_key");
    } finally {
      await browser.close();
    }
  });

  it("the rate limit counts the requests sent to both", async () => {
    const { secret: apiKey } = await newKey();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await models(i % 2 ? a : b, apiKey)).status);
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});
