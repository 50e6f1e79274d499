// Two production instances (node server.mjs, the build from `npm test`) on
// one PostgreSQL database, and then on PostgreSQL with Redis: nothing that
// matters lives in one process. Each instance caches the keys it verified
// (lib/keys/key-cache.ts), so every test about a change first proves that
// instance b answers the key from its cache (its request log says
// key_cache "hit"), then makes the change elsewhere and sends b the very next
// request, with no wait in between: on PostgreSQL a cached key is served with
// no database read, so only the fence (lib/instances) makes that hold. Run by `npm run test:services`.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Actor } from "@/lib/audit";
import { createAccount } from "@/lib/auth/accounts";
import { db } from "@/lib/db";
import { LAPSE_MARGIN_MS, LEASE_MS } from "@/lib/instances/lease";
import { createKey, revokeKey } from "@/lib/keys/lifecycle";
import { runtime } from "@/lib/runtime/runtime";
import { addMember, createTeam, LEFT_TEAM_REASON } from "@/lib/teams/members";
import { createServiceAccount } from "@/lib/teams/service-accounts";
import { removeMemberAction } from "@/lib/web/actions/teams";
import {
  createKey as createKeyInDashboard,
  PASSWORD,
  rowAction,
  saveNewSecret,
  signUp,
  uniqueEmail,
} from "../e2e/helpers";
import { databaseProxy, type DatabaseProxy } from "../helpers/database-proxy";
import { actAs, formOf } from "../helpers/next-request";
import { awayFromWindowEdge } from "../helpers/rate-window";
import {
  freePort,
  outboxDir,
  requireBuild,
  startInstance,
  startRedis,
  stopInstances,
  stopRedis,
  type Instance,
} from "../helpers/production-server";
import { projectRoot } from "../helpers/test-database";

// The dashboard's removal runs here as its form posts it (the action wrapper, the session, the fence), with Next's
// request APIs as the integration tests have them.
vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

/** A fresh account, so rate limits start from zero; answers who acts for it. */
async function newAccount(): Promise<Actor> {
  const user = await createAccount(uniqueEmail("instances"), "a long enough password");
  if (!user.ok) throw new Error(user.error);
  return { userId: user.userId, ip: null, userAgent: null };
}

const keyOf = (actor: Actor) => createKey(actor, { label: "two instances", environment: "dev", expiresAt: null });

const newKey = async () => keyOf(await newAccount());

const models = (instance: Instance, key: string) =>
  fetch(`${instance.base}/api/v1/models`, { headers: { Authorization: `Bearer ${key}` } });

const chat = (instance: Instance, key: string) =>
  fetch(`${instance.base}/api/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "keyport-sandbox-mini", messages: [{ role: "user", content: "Hi" }] }),
  });

/** Asserts the answer's status and, for an error, its catalog code. */
async function expectAnswer(response: Response, status: number, code?: string) {
  const body = (await response.json()) as { error?: { code: string } };
  expect({ status: response.status, code: body.error?.code }).toEqual({ status, code });
}

/** Sends the key twice; the second request must be answered 200 from the instance's cache. */
async function expectCached(instance: Instance, key: string) {
  expect((await models(instance, key)).status).toBe(200);
  const second = await models(instance, key);
  expect(second.status).toBe(200);
  const line = await instance.logLine(second.headers.get("x-request-id"));
  expect({ key_cache: line.key_cache, status: line.status }).toEqual({ key_cache: "hit", status: 200 });
}

/** The operator CLI, in its own process, as an operator runs it; resolves once it has exited. */
async function admin(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(
    path.join(projectRoot, "node_modules", ".bin", "tsx"),
    ["--conditions=react-server", "scripts/admin.mts", ...args],
    { cwd: projectRoot, env: { ...process.env }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const [code] = (await once(child, "close")) as [number | null];
  return { code, stderr };
}

async function withBrowser(work: (browser: Browser) => Promise<void>) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"],
  });
  try {
    await work(browser);
  } finally {
    await browser.close();
  }
}

/** Revokes from the key list's menu and waits for the action to have returned (its toast). */
async function revokeFromList(page: Page, label: string) {
  await (await rowAction(page, label, "Revoke")).getByRole("button", { name: "Revoke key" }).click();
  await page
    .getByTestId("toast")
    .filter({ hasText: `Revoked “${label}”` })
    .waitFor();
}

let redis: ChildProcess | undefined;

beforeAll(requireBuild);

afterAll(async () => {
  stopInstances();
  await stopRedis(redis);
});

describe.each([
  ["PostgreSQL", false],
  ["PostgreSQL and Redis", true],
])("two instances on %s", (_name, withRedis) => {
  let a: Instance;
  let b: Instance;
  /** Like b, but reaching the database through a proxy the test can cut. */
  let c: Instance;
  /** Like b, but letting requests through (after verifying the key) while Redis is down. */
  let failOpen: Instance | undefined;
  let proxy: DatabaseProxy;
  let redisPort = 0;

  beforeAll(async () => {
    const env: Record<string, string> = {
      DATABASE_URL: process.env.DATABASE_URL!,
      RATE_LIMIT_DEV_PER_MINUTE: "10",
      SIGN_UP_LIMIT_PER_HOUR: "100",
    };
    if (withRedis) {
      redisPort = await freePort();
      redis = await startRedis(redisPort);
      env.REDIS_URL = `redis://127.0.0.1:${redisPort}`;
    }
    proxy = await databaseProxy(process.env.DATABASE_URL!);
    [a, b, c, failOpen] = await Promise.all([
      startInstance(env),
      startInstance(env),
      startInstance({ ...env, DATABASE_URL: proxy.url }),
      withRedis ? startInstance({ ...env, RATE_LIMIT_FAIL_OPEN: "1" }) : undefined,
    ]);
  }, 120_000);

  afterAll(async () => {
    for (const instance of [a, b, c, failOpen]) instance?.stop();
    await proxy?.close();
    await stopRedis(redis);
  });

  /** Signs up on instance a in Chromium; answers the dashboard page. */
  async function signUpOnA(browser: Browser): Promise<Page> {
    const page = await browser.newPage({ baseURL: a.base });
    await signUp(page, uniqueEmail(`two-${withRedis ? "r" : "p"}`), PASSWORD, "", outboxDir);
    return page;
  }

  it("a key made read-only on one instance's key page is refused a write by the other on its next call", () =>
    withBrowser(async (browser) => {
      const page = await signUpOnA(browser);
      const apiKey = await createKeyInDashboard(page, "scoped across instances");
      await expectCached(b, apiKey);
      expect((await chat(b, apiKey)).status).toBe(200);

      await page.getByRole("link", { name: "scoped across instances" }).click();
      await page.getByRole("button", { name: "Edit access of “scoped across instances”" }).click();
      await page.getByRole("radio", { name: /Read only/ }).check();
      await page.getByRole("button", { name: "Save access" }).click();
      await page.getByTestId("toast").filter({ hasText: "Saved what" }).waitFor();

      const refused = await chat(b, apiKey);
      await expectAnswer(refused, 403, "insufficient_scope");
      // The edit moved the key's version: b dropped its entry and read the key again.
      expect((await b.logLine(refused.headers.get("x-request-id"))).key_cache).toBe("miss");
      expect((await models(b, apiKey)).status).toBe(200);
    }));

  it("a key revoked in one instance's dashboard is refused by the other on its next call", () =>
    withBrowser(async (browser) => {
      const page = await signUpOnA(browser);
      const apiKey = await createKeyInDashboard(page, "across instances");
      await expectCached(b, apiKey);

      // The revoked key leaves the list of keys in use once the action has returned.
      await revokeFromList(page, "across instances");
      // It returned once every instance had applied the revoke (lib/instances/fence.ts), and says so.
      const live = withRedis ? 4 : 3;
      await page
        .getByTestId("toast")
        .filter({
          hasText: new RegExp(`Revoked “across instances”.*Confirmed by ${live} of ${live} instances in [\\d,]+ ms\\.`),
        })
        .waitFor();
      await expectAnswer(await models(b, apiKey), 401, "revoked_api_key");
    }));

  it("a rotation cut short on one instance's key page stops the old key on the other at once; the new one works", () =>
    withBrowser(async (browser) => {
      const label = "rotated across instances";
      const page = await signUpOnA(browser);
      const oldKey = await createKeyInDashboard(page, label);
      await expectCached(b, oldKey);

      await page.getByRole("link", { name: label }).click();
      await page.getByRole("button", { name: `Rotate “${label}”` }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Rotate key" }).click();
      const newKey = await saveNewSecret(page);
      // In its grace period the old key still works; the rotation moved its version, so b read it again.
      const inGrace = await models(b, oldKey);
      expect(inGrace.status).toBe(200);
      expect((await b.logLine(inGrace.headers.get("x-request-id"))).key_cache).toBe("miss");
      await expectCached(b, oldKey);

      // The old key's page, once the rotation has revalidated it, offers to end the grace period now.
      await page.getByRole("button", { name: "Retire the old key now" }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
      await page
        .getByTestId("toast")
        .filter({ hasText: `Revoked “${label}”` })
        .waitFor();

      await expectAnswer(await models(b, oldKey), 401, "revoked_api_key");
      expect((await models(b, newKey)).status).toBe(200);
    }));

  it("a key revoked with the operator CLI, in its own process, is refused by an instance that had it cached", async () => {
    const { secret, key } = await newKey();
    await expectCached(b, secret);

    const cli = await admin(["key:revoke", "--id", key.id]);
    expect(cli, cli.stderr).toMatchObject({ code: 0 });
    await expectAnswer(await models(b, secret), 401, "revoked_api_key");
  });

  it("an instance paused past its lease: a revoke waits for its lease, not for it, and once resumed it refuses the key", async () => {
    const actor = await newAccount();
    const { secret, key } = await keyOf(actor);
    await expectCached(b, secret);

    b.signal("SIGSTOP");
    try {
      await revokeKey(actor, key.id, null);
      // This process serves nothing: its fence opens a connection of its own, as the operator CLI's does.
      const fence = await runtime().confirmChange();
      expect(fence!.total - fence!.confirmed).toBe(1);
      // It waited for b's lease to lapse (a second, counted from b's last heartbeat, and a margin), no longer.
      expect(fence!.ms).toBeGreaterThan(300);
      expect(fence!.ms).toBeLessThan(LEASE_MS + LAPSE_MARGIN_MS + 500);
      await expectAnswer(await models(a, secret), 401, "revoked_api_key");
    } finally {
      b.signal("SIGCONT");
    }
    // b never heard the change while paused, but its lease lapsed: its first request reads the key.
    await expectAnswer(await models(b, secret), 401, "revoked_api_key");
  });

  it("a member removed with the operator CLI: their team key, cached on both instances, is refused by both at once", async () => {
    const [owner, leaver] = [await newAccount(), await newAccount()];
    const operator = (userId: string) => ({ userId, ip: null, userAgent: "test", kind: "operator" as const });
    const team = await createTeam(operator(owner.userId), { name: "Two instances" });
    await addMember(operator(leaver.userId), team.id, leaver.userId, "developer");
    const inTeam = (actor: Actor) =>
      createKey(actor, { label: "team key", environment: "dev", expiresAt: null, teamId: team.id });
    const [theirs, owners] = [await inTeam(leaver), await inTeam(owner)];
    for (const instance of [a, b]) await expectCached(instance, theirs.secret);

    const { email } = await db.user.findUniqueOrThrow({ where: { id: leaver.userId }, select: { email: true } });
    const cli = await admin(["team:remove-member", "--team", team.slug, "--email", email!]);
    expect(cli, cli.stderr).toMatchObject({ code: 0 });
    for (const instance of [a, b]) {
      await expectAnswer(await models(instance, theirs.secret), 401, "revoked_api_key");
      // Keys others made in the team are untouched.
      expect((await models(instance, owners.secret)).status).toBe(200);
    }
  });

  it("a member removed with --transfer-to: the handed key, cached on both, answers both; the other key neither", async () => {
    const [owner, leaver] = [await newAccount(), await newAccount()];
    const operator = (userId: string) => ({ userId, ip: null, userAgent: "test", kind: "operator" as const });
    const team = await createTeam(operator(owner.userId), { name: "Two instances, a handover" });
    await addMember(operator(leaver.userId), team.id, leaver.userId, "developer");
    const bot = await admin(["service-account:create", "--team", team.slug, "--name", "CI"]);
    expect(bot, bot.stderr).toMatchObject({ code: 0 });
    const handed = await createKey(leaver, { label: "ci", environment: "dev", expiresAt: null, teamId: team.id });
    for (const instance of [a, b]) await expectCached(instance, handed.secret);

    const { email } = await db.user.findUniqueOrThrow({ where: { id: leaver.userId }, select: { email: true } });
    const cli = await admin(["team:remove-member", "--team", team.slug, "--email", email!, "--transfer-to", "CI"]);
    expect(cli, cli.stderr).toMatchObject({ code: 0 });
    for (const instance of [a, b]) expect((await models(instance, handed.secret)).status).toBe(200);
    // The control: another member removed without --transfer-to. Their key, cached on both, is refused by both at
    // once, while the handed key still answers.
    const other = await newAccount();
    await addMember(operator(other.userId), team.id, other.userId, "developer");
    const theirs = await createKey(other, { label: "theirs", environment: "dev", expiresAt: null, teamId: team.id });
    for (const instance of [a, b]) await expectCached(instance, theirs.secret);
    const otherEmail = (await db.user.findUniqueOrThrow({ where: { id: other.userId }, select: { email: true } }))
      .email!;
    const removed = await admin(["team:remove-member", "--team", team.slug, "--email", otherEmail]);
    expect(removed, removed.stderr).toMatchObject({ code: 0 });
    for (const instance of [a, b]) {
      await expectAnswer(await models(instance, theirs.secret), 401, "revoked_api_key");
      expect((await models(instance, handed.secret)).status).toBe(200);
    }
  });

  it("one removal from the dashboard hands a key over as it is, another rotated, and revokes a third: every instance agrees at once", async () => {
    const [owner, leaver] = [await newAccount(), await newAccount()];
    const operator = (userId: string) => ({ userId, ip: null, userAgent: "test", kind: "operator" as const });
    const team = await createTeam(operator(owner.userId), { name: "Two instances, one departure" });
    await addMember(operator(leaver.userId), team.id, leaver.userId, "developer");
    const bot = await createServiceAccount(operator(owner.userId), team.id, "Deploys");
    const theirs = (label: string) =>
      createKey(leaver, { label, environment: "dev", expiresAt: null, teamId: team.id });
    const [kept, rotated, dropped] = [await theirs("kept"), await theirs("rotated"), await theirs("dropped")];
    // Each cached on both instances: a stale entry would answer as it did before.
    for (const instance of [a, b])
      for (const { secret } of [kept, rotated, dropped]) await expectCached(instance, secret);

    // The owner removes them from the removal page's form: "kept" handed over as it is, "rotated" handed over with
    // the proposed rotation (no grace chosen: the default), "dropped" left to be revoked.
    await actAs(owner.userId);
    const result = await removeMemberAction(
      null,
      formOf({
        team: team.slug,
        userId: leaver.userId,
        [`handover.${kept.key.id}`]: `keep:${bot.id}`,
        [`handover.${rotated.key.id}`]: `rotate:${bot.id}`,
      }),
    );
    if (!result.ok) throw new Error(JSON.stringify(result));
    // The very next request to each instance, with no wait (b first: it has not served since the change).
    for (const instance of [b, a]) {
      await expectAnswer(await models(instance, dropped.secret), 401, "revoked_api_key");
      expect((await models(instance, kept.secret)).status).toBe(200);
      // Within its grace the rotated key's old secret still works, and its new one works everywhere.
      expect((await models(instance, rotated.secret)).status).toBe(200);
    }
    // It returned once the fence had every live instance's word (how many lingers from the other describe's runs).
    expect(result.data.message).toMatch(
      new RegExp(
        `^Removed\\. 1 key of theirs stopped working just now\\. 2 keys were handed to a service account and keep working\\. Confirmed by \\d+ of \\d+ instances`,
      ),
    );
    const [replacement] = result.data.replacements;
    expect(result.data.replacements).toHaveLength(1);
    expect(replacement).toMatchObject({ oldKeyId: rotated.key.id, serviceAccount: "Deploys" });
    for (const instance of [a, b]) expect((await models(instance, replacement!.secret)).status).toBe(200);
    // The old secret stops after the default grace, 24 hours.
    const stops = (await db.apiKey.findUniqueOrThrow({ where: { publicId: rotated.key.id } })).expiresAt!;
    expect(stops.getTime() - Date.now()).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(stops.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3600_000);

    // The team's activity names each key and what happened to it.
    const rows = await db.teamAuditEvent.findMany({
      where: { teamId: team.id, action: { in: ["key.transferred", "key.revoked", "key.rotated"] } },
      orderBy: { seq: "asc" },
    });
    const named = rows.map((row) => ({ action: row.action, keyId: row.keyId, ...JSON.parse(row.details ?? "{}") }));
    expect(named).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: "key.transferred", keyId: kept.key.id, rotated: false }),
        expect.objectContaining({ action: "key.transferred", keyId: rotated.key.id, rotated: true }),
        expect.objectContaining({ action: "key.rotated", keyId: rotated.key.id, grace: "24h" }),
        expect.objectContaining({ action: "key.revoked", keyId: dropped.key.id, reason: LEFT_TEAM_REASON }),
      ]),
    );
    expect(named).toHaveLength(4);
  });

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
    await awayFromWindowEdge();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await models(i % 2 ? a : b, apiKey)).status);
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it("an instance cut off from its database refuses cached keys, and once back sees a revocation made meanwhile", async () => {
    const actor = await newAccount();
    const [revoked, kept] = [await keyOf(actor), await keyOf(actor)];
    for (const { secret } of [revoked, kept]) await expectCached(c, secret);

    proxy.cut();
    try {
      // Until its lease lapses (a second at most) c may answer from its cache: it has missed nothing yet. From then
      // on the cache holds both keys, but nothing is trusted without the database: 503, never 200.
      const cutAt = Date.now();
      await expect.poll(async () => (await models(c, kept.secret)).status, { timeout: 5_000, interval: 50 }).toBe(503);
      expect(Date.now() - cutAt).toBeLessThan(LEASE_MS + LAPSE_MARGIN_MS + 1_000);
      for (const { secret } of [revoked, kept]) await expectAnswer(await models(c, secret), 503, "service_unavailable");
      // Revoked where c cannot see it, and confirmed: the fence waits out c's lease (lapsed already), not c.
      await revokeKey(actor, revoked.key.id, null);
      await runtime().confirmChange();
      await expectAnswer(await models(c, revoked.secret), 503, "service_unavailable");
    } finally {
      proxy.restore();
    }

    await expectAnswer(await models(c, revoked.secret), 401, "revoked_api_key");
    expect((await models(c, kept.secret)).status).toBe(200);
    // Its listener reconnects on its own and drops the whole cache (it may have missed changes); from then on the
    // key is answered from the cache again.
    await expect
      .poll(
        async () => {
          const again = await models(c, kept.secret);
          return { status: again.status, key_cache: (await c.logLine(again.headers.get("x-request-id"))).key_cache };
        },
        { timeout: 10_000 },
      )
      .toEqual({ status: 200, key_cache: "hit" });
  });

  // Only where there is a Redis to stop; last in the file: it stops Redis, and starts it again only at the end.
  if (withRedis)
    it("with Redis stopped, a key revoked on one instance is refused by the others, failing closed or open", () =>
      withBrowser(async (browser) => {
        const open = failOpen!;
        const page = await signUpOnA(browser);
        const revoked = await createKeyInDashboard(page, "revoked while Redis is down");
        const kept = await createKeyInDashboard(page, "kept while Redis is down");
        for (const instance of [b, open]) for (const key of [revoked, kept]) await expectCached(instance, key);

        await stopRedis(redis);
        try {
          await revokeFromList(page, "revoked while Redis is down");
          // The key is checked against the database before the rate limiter is asked: both refuse it.
          for (const instance of [b, open]) await expectAnswer(await models(instance, revoked), 401, "revoked_api_key");
          // A key still in force: b fails closed; the fail-open instance lets it through, from its
          // cache (a hit: its lease holds, so no change to the key was missed).
          await expectAnswer(await models(b, kept), 503, "service_unavailable");
          const passed = await models(open, kept);
          expect(passed.status).toBe(200);
          expect((await open.logLine(passed.headers.get("x-request-id"))).key_cache).toBe("hit");
        } finally {
          redis = await startRedis(redisPort);
        }
        // Redis back (the client reconnects on its own): b counts and answers again.
        await expect.poll(async () => (await models(b, kept)).status, { timeout: 10_000 }).toBe(200);
      }));
});
