// Two instances in this process, each a runtime of its own (its own pools, key
// cache, change listener and lease) on one database, as two servers would be:
// on PostgreSQL a cached key is served with no database read while the
// instance's lease holds, and a change returns only once both instances have
// applied it, or once the lease of one that did not answer has lapsed
// (lib/instances). On SQLite nothing of this exists: one process, the WAL change mark.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { dbProvider, db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { LAPSE_MARGIN_MS, LEASE_MS } from "@/lib/instances/lease";
import { createKey, revokeKey, updateRestrictions } from "@/lib/keys/lifecycle";
import { runtime } from "@/lib/runtime/runtime";
import { bareAccount } from "../helpers/bare-account";
import { databaseProxy } from "../helpers/database-proxy";
import { expectServedFromCache, proxies, startInstance, stopInstances } from "../helpers/instances";

async function newKey() {
  const user = await bareAccount(`fence.${randomUUID()}@example.com`);
  const actor = { userId: user.id, ip: null, userAgent: null };
  const { key, secret } = await createKey(actor, { label: "fenced", environment: "dev", expiresAt: null });
  return { actor, id: key.id, secret };
}

// Each test's instances leave the table when it ends: the next test's fences wait for its own instances only.
afterEach(stopInstances);

describe.runIf(dbProvider() === "postgres")("two instances on PostgreSQL", () => {
  it("serve a cached key with no database read, and a revoke confirmed by both is refused by both at once", async () => {
    const [a, b] = [await startInstance(), await startInstance()];
    const { actor, id, secret } = await newKey();
    for (const instance of [a, b]) await expectServedFromCache(instance, secret);

    await revokeKey(actor, id, null);
    const fence = await a.runtime.confirmChange();
    expect(fence).toMatchObject({ confirmed: 2, total: 2 });
    expect(fence!.ms).toBeLessThan(LEASE_MS);
    // The very next request on each: the change was applied before the fence returned.
    for (const instance of [a, b])
      expect(await instance.models(secret)).toEqual({ status: 401, code: "revoked_api_key" });
  });

  it("a fence from a process that serves nothing (the operator CLI) is acknowledged by every instance", async () => {
    const [a, b] = [await startInstance(), await startInstance()];
    const { actor, id, secret } = await newKey();
    for (const instance of [a, b]) await expectServedFromCache(instance, secret);

    await updateRestrictions(actor, id, { scopes: ["files:write"], allowedIps: null, rateLimit: null });
    // This test's own runtime never started a listener: its fence opens a connection of its own.
    expect(runtime().instance!.connected()).toBe(false);
    const fence = await runtime().confirmChange();
    expect(fence).toMatchObject({ confirmed: 2, total: 2 });
    for (const instance of [a, b]) {
      expect(await instance.models(secret)).toEqual({ status: 403, code: "insufficient_scope" });
    }
  });

  it("an instance whose listener stalls is waited for until its lease lapsed, and reads every key meanwhile", async () => {
    const proxy = await databaseProxy(getEnv().DATABASE_URL);
    proxies.push(proxy);
    const [a, b] = [await startInstance(), await startInstance(proxy.url)];
    const { actor, id, secret } = await newKey();
    const kept = await newKey();
    for (const instance of [a, b]) {
      await expectServedFromCache(instance, secret);
      await expectServedFromCache(instance, kept.secret);
    }

    // b's listener hears nothing from here on (its process stopped, or the network stalled without closing).
    proxy.hold();
    await revokeKey(actor, id, null);
    const before = performance.now();
    const fence = await a.runtime.confirmChange();
    const waited = performance.now() - before;
    expect(fence).toMatchObject({ confirmed: 1, total: 2 });
    // It waited for b's lease, never longer than a lease and the margin.
    expect(waited).toBeLessThan(LEASE_MS + LAPSE_MARGIN_MS + 500);
    expect(b.runtime.instance!.trusted()).toBe(false);
    // b never heard of the revoke, but no longer trusts its cache: it reads the key and refuses it.
    expect(await b.models(secret)).toEqual({ status: 401, code: "revoked_api_key" });
    expect(b.reads()).toBeGreaterThan(0);
    expect(await b.models(kept.secret)).toEqual({ status: 200 });
    expect(b.reads()).toBe(1);

    // Heard again: b reconnects on its own, drops its whole cache, and serves from it again.
    proxy.release();
    await vi.waitFor(() => expect(b.runtime.instance!.trusted()).toBe(true), { timeout: 15_000 });
    await expectServedFromCache(b, kept.secret);
    expect(await b.models(secret)).toEqual({ status: 401, code: "revoked_api_key" });
  });

  it("a listener cut: the instance keeps answering from the database, logs it once, and comes back to its cache", async () => {
    const proxy = await databaseProxy(getEnv().DATABASE_URL);
    proxies.push(proxy);
    const b = await startInstance(proxy.url);
    const { secret } = await newKey();
    await expectServedFromCache(b, secret);
    const warnings = vi.spyOn(console, "warn");

    proxy.cut();
    await vi.waitFor(() => expect(b.runtime.instance!.trusted()).toBe(false), { timeout: 5_000 });
    for (let i = 0; i < 5; i++) expect(await b.models(secret)).toEqual({ status: 200 });
    // Each of those read the key's version: the cache was not trusted.
    expect(b.reads()).toBeGreaterThanOrEqual(5);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const lost = warnings.mock.calls.filter(([line]) => String(line).includes("instances.listener_lost"));
    expect(lost).toHaveLength(1);

    proxy.restore();
    await vi.waitFor(() => expect(b.runtime.instance!.trusted()).toBe(true), { timeout: 15_000 });
    await expectServedFromCache(b, secret);
    warnings.mockRestore();
  });

  it("a change made by plain SQL reaches every instance within the lease, with no fence", async () => {
    const [a, b] = [await startInstance(), await startInstance()];
    const { id, secret } = await newKey();
    for (const instance of [a, b]) await expectServedFromCache(instance, secret);

    await db.$executeRaw`UPDATE "ApiKey" SET "revokedAt" = now() WHERE "publicId" = ${id}`;
    const committed = performance.now();
    for (const instance of [a, b]) {
      await vi.waitFor(async () => expect((await instance.models(secret)).status).toBe(401), {
        timeout: LEASE_MS,
        interval: 5,
      });
    }
    expect(performance.now() - committed).toBeLessThan(LEASE_MS);
  });

  it("a member removed from the team: the listener drops that member's keys in that team", async () => {
    const b = await startInstance();
    const { actor, secret } = await newKey();
    await expectServedFromCache(b, secret);
    const membership = await db.membership.findFirstOrThrow({ where: { userId: actor.userId } });
    // A change to the membership row alone, by plain SQL: the key is dropped from the cache and read again.
    await db.$executeRaw`UPDATE "Membership" SET "role" = 'admin' WHERE "teamId" = ${membership.teamId} AND "userId" = ${actor.userId}`;
    await b.runtime.confirmChange();
    b.reads();
    expect(await b.models(secret)).toEqual({ status: 200 });
    expect(b.reads()).toBe(1);
  });
});

describe.runIf(dbProvider() === "sqlite")("one instance on SQLite", () => {
  it("has no listener and no fence: the WAL change mark alone keeps the cache current", async () => {
    expect(runtime().instance).toBeNull();
    expect(await runtime().confirmChange()).toBeNull();
    expect(await db.gateInstance.count()).toBe(0);
  });
});
