// Usage at the gate: every request that found a key is recorded, whatever its
// outcome, off the request's path, in the request log and the hourly
// aggregates; requests that found no key are not; a full buffer drops and
// counts without failing a request; retention keeps the aggregates longer.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createAccount } from "@/lib/auth/accounts";
import { PEER_IP_HEADER } from "@/lib/auth/client-ip";
import { db } from "@/lib/db";
import { generateApiKey } from "@/lib/keys/format";
import { uncachedKeyLookup } from "@/lib/keys/key-cache";
import { databaseKeyStore } from "@/lib/keys/key-store";
import { createKey, revokeKey } from "@/lib/keys/lifecycle";
import type { KeyRestrictions } from "@/lib/keys/restrictions";
import { flushLog } from "@/lib/log";
import { pruneOnce } from "@/lib/maintenance/prune";
import { testGate } from "../helpers/test-gate";
import { UsageBuffer } from "@/lib/usage/buffer";
import { hourOf, type UsageEvent } from "@/lib/usage/event";
import { closeUsage, loggedWrites } from "@/lib/usage/usage-sink";
import { writeUsage } from "../helpers/usage-writer";

vi.hoisted(() => {
  process.env.RATE_LIMIT_DEV_PER_MINUTE = "100000";
  process.env.RATE_LIMIT_ACCOUNT_DEV_PER_MINUTE = "10000000";
});

let actor: { userId: string; ip: null; userAgent: null };

beforeAll(async () => {
  const user = await createAccount(`usage-${Date.now()}@example.com`, "a long enough password");
  if (!user.ok) throw new Error(user.error);
  actor = { userId: user.userId, ip: null, userAgent: null };
});

async function newKey(restrictions: Partial<KeyRestrictions> = {}, label = "usage") {
  const issued = await createKey(actor, {
    label,
    environment: "dev",
    expiresAt: null,
    restrictions: { scopes: "all", allowedIps: null, rateLimit: null, ...restrictions },
  });
  const row = await db.apiKey.findUniqueOrThrow({ where: { publicId: issued.key.id }, select: { id: true } });
  return { ...issued, rowId: row.id };
}

function request(path: string, key: string | null, init: { method?: string; body?: string; ua?: string } = {}) {
  const headers: Record<string, string> = {
    [PEER_IP_HEADER]: "203.0.113.9",
    "user-agent": init.ua ?? "usage-test/1.0",
  };
  if (key) headers.authorization = `Bearer ${key}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  return new Request(`http://localhost${path}`, { method: init.method ?? "GET", headers, body: init.body });
}

/** An event as the gate would record it; the tests name what differs. */
function usageEvent(fields: Pick<UsageEvent, "requestId" | "keyId" | "userId" | "createdAt">): UsageEvent {
  return {
    route: "list_models",
    status: 200,
    errorCode: null,
    latencyMs: 1,
    ip: "203.0.113.9",
    userAgent: null,
    ...fields,
  };
}

const chat = JSON.stringify({ model: "keyport-sandbox-mini", messages: [{ role: "user", content: "Hi" }] });

describe("what is recorded", () => {
  it("counts every outcome after the lookup exactly, in the log and the aggregates, and nothing before it", async () => {
    const buffer = new UsageBuffer({ write: (events) => writeUsage(events), intervalMs: 60_000 });
    const gate = testGate({ usage: buffer });
    const main = await newKey({}, "mixed");
    const readOnly = await newKey({ scopes: ["catalog:read"] }, "read only");
    const limited = await newKey({ rateLimit: 1 }, "limited");
    const revoked = await newKey({}, "revoked");
    await revokeKey(actor, revoked.key.id, null);

    const statuses = [];
    const began = performance.now();
    for (let i = 0; i < 3; i++) statuses.push((await gate(request("/api/v1/models", main.secret))).status);
    statuses.push((await gate(request("/api/v1/chat/completions", main.secret, { method: "POST", body: "{" }))).status);
    statuses.push(
      (await gate(request("/api/v1/chat/completions", main.secret, { method: "POST", body: chat }))).status,
    );
    statuses.push((await gate(request("/api/v1/models", revoked.secret))).status);
    statuses.push(
      (await gate(request("/api/v1/chat/completions", readOnly.secret, { method: "POST", body: chat }))).status,
    );
    statuses.push((await gate(request("/api/v1/models", limited.secret))).status);
    statuses.push((await gate(request("/api/v1/models", limited.secret))).status);
    // No row for these: nothing was found to own them.
    statuses.push((await gate(request("/api/v1/models", generateApiKey("dev")))).status);
    statuses.push((await gate(request("/api/v1/models", "sk_dev_malformed"))).status);
    statuses.push((await gate(request("/api/v1/models", null))).status);
    statuses.push((await gate(request("/api/v1/nowhere", main.secret))).status);
    statuses.push((await gate(request(`/api/v1/models?key=${main.secret}`, main.secret))).status);
    expect(statuses).toEqual([200, 200, 200, 400, 200, 401, 403, 200, 429, 401, 401, 401, 404, 400]);
    const span = performance.now() - began;
    expect(buffer.snapshot()).toMatchObject({ recorded: 9, written: 0, pending: 9, dropped: 0 });
    await buffer.close();
    expect(buffer.snapshot()).toMatchObject({ written: 9, pending: 0 });

    const events = await db.usageEvent.findMany({
      where: { keyId: { in: [main.rowId, readOnly.rowId, limited.rowId, revoked.rowId] } },
      orderBy: { createdAt: "asc" },
    });
    const summary = (rowId: string) =>
      events.filter((e) => e.keyId === rowId).map((e) => `${e.route} ${e.status} ${e.errorCode ?? "-"}`);
    expect(summary(main.rowId)).toEqual([
      "list_models 200 -",
      "list_models 200 -",
      "list_models 200 -",
      "create_chat_completion 400 invalid_request",
      "create_chat_completion 200 -",
    ]);
    expect(summary(revoked.rowId)).toEqual(["list_models 401 revoked_api_key"]);
    expect(summary(readOnly.rowId)).toEqual(["create_chat_completion 403 insufficient_scope"]);
    expect(summary(limited.rowId)).toEqual(["list_models 200 -", "list_models 429 rate_limited"]);
    for (const event of events) {
      expect(event).toMatchObject({ userId: actor.userId, ip: "203.0.113.9", userAgent: "usage-test/1.0" });
      expect(event.requestId).toMatch(/^req_/);
      // A whole number of milliseconds, within the time all the requests took together.
      expect(Number.isInteger(event.latencyMs)).toBe(true);
      expect(event.latencyMs).toBeLessThanOrEqual(Math.ceil(span));
    }

    const hours = await db.usageHourly.findMany({ where: { keyId: main.rowId } });
    const byRoute = Object.fromEntries(hours.map((h) => [`${h.route} ${h.statusClass}`, h.count]));
    expect(byRoute).toEqual({ "list_models 2xx": 3, "create_chat_completion 4xx": 1, "create_chat_completion 2xx": 1 });
  });

  it("records how long the gate took over each request", async () => {
    const buffer = new UsageBuffer({ write: (events) => writeUsage(events), intervalMs: 60_000 });
    const slowMs = 60;
    const lookup = uncachedKeyLookup(databaseKeyStore(db));
    // The key lookup of this gate takes at least slowMs: the recorded latency must include it.
    const gate = testGate({
      usage: buffer,
      keys: { find: async (digest) => (await new Promise((r) => setTimeout(r, slowMs)), lookup.find(digest)) },
    });
    const key = await newKey({}, "latency");
    const began = performance.now();
    expect((await gate(request("/api/v1/models", key.secret))).status).toBe(200);
    const took = performance.now() - began;
    await buffer.close();
    const [event] = await db.usageEvent.findMany({ where: { keyId: key.rowId } });
    expect(event?.latencyMs).toBeGreaterThanOrEqual(slowMs - 1);
    expect(event?.latencyMs).toBeLessThanOrEqual(Math.ceil(took));
  });

  it("keeps no secret, digest or header value but the user agent in the usage tables", async () => {
    const buffer = new UsageBuffer({ write: (events) => writeUsage(events), intervalMs: 60_000 });
    const gate = testGate({ usage: buffer });
    const key = await newKey({}, "secret scan");
    const digest = (await db.apiKey.findUniqueOrThrow({ where: { id: key.rowId } })).digest;
    await gate(request("/api/v1/models", key.secret));
    await buffer.close();
    const dump = JSON.stringify([await db.usageEvent.findMany(), await db.usageHourly.findMany()]);
    expect(dump).not.toContain(key.secret);
    expect(dump).not.toContain(digest);
    expect(dump.match(/sk_(dev|prod)_[0-9A-Za-z]{20,}/g)).toBeNull();
    expect(dump).not.toMatch(/Bearer/);
  });
});

describe("off the request's path", () => {
  it("a full buffer drops and counts events; the requests are answered as always", async () => {
    const never = new Promise<void>(() => {});
    const drops: number[] = [];
    const buffer = new UsageBuffer({
      write: () => never, // a database that never answers
      maxEvents: 3,
      batchSize: 1_000,
      intervalMs: 60_000,
      onDrop: (dropped) => drops.push(dropped),
    });
    const gate = testGate({ usage: buffer });
    const key = await newKey({}, "full buffer");
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await gate(request("/api/v1/models", key.secret))).status);
    expect(statuses).toEqual(Array(10).fill(200));
    expect(buffer.snapshot()).toMatchObject({ recorded: 10, pending: 3, dropped: 7 });
    expect(drops).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("a failed write drops its batch, counted, and the buffer goes on", async () => {
    let fail = true;
    const written: UsageEvent[] = [];
    const buffer = new UsageBuffer({
      write: async (events) => {
        if (fail) throw new Error("database down");
        written.push(...events);
      },
      intervalMs: 60_000,
    });
    const gate = testGate({ usage: buffer });
    const key = await newKey({}, "failed write");
    await gate(request("/api/v1/models", key.secret));
    await buffer.flush();
    fail = false;
    await gate(request("/api/v1/models", key.secret));
    await buffer.close();
    expect(buffer.snapshot()).toMatchObject({ recorded: 2, written: 1, dropped: 1 });
    expect(written).toHaveLength(1);
  });

  it("logs a failed batch with the requests it stood for, not its length", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const buffer = new UsageBuffer({
        write: loggedWrites({ write: async () => Promise.reject(new Error("database is locked")) }),
        intervalMs: 60_000,
        logPerKeyPerMinute: 1,
      });
      const at = new Date();
      for (let i = 0; i < 50; i++) {
        buffer.record(usageEvent({ requestId: `req_lost_${i}`, keyId: "k", userId: "u", createdAt: at }));
      }
      await buffer.close();
      expect(buffer.snapshot()).toMatchObject({ recorded: 50, written: 0, dropped: 50 });
      const lines = errors.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
      // One logged event and one standing for the other 49.
      expect(lines.filter((line) => line.event === "usage.write_failed")).toEqual([
        expect.objectContaining({ requests: 50, events: 2, error: "database is locked" }),
      ]);
    } finally {
      errors.mockRestore();
    }
  });

  it("on shutdown, a write that cannot finish in time still leaves the closing line, with the requests not written", async () => {
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      // A database locked by another process: the write waits (up to its busy timeout, longer than the grace).
      const writer = { write: () => new Promise<void>(() => {}) };
      const buffer = new UsageBuffer({ write: writer.write, intervalMs: 60_000, logPerKeyPerMinute: 1 });
      const at = new Date();
      for (let i = 0; i < 30; i++) {
        buffer.record(usageEvent({ requestId: `req_cut_${i}`, keyId: "k", userId: "u", createdAt: at }));
      }
      const started = Date.now();
      await closeUsage(buffer, writer, { deadlineMs: 200 });
      expect(Date.now() - started).toBeLessThan(2_000);
      const lines = [...warnings.mock.calls, ...errors.mock.calls].map(
        ([line]) => JSON.parse(String(line)) as Record<string, unknown>,
      );
      expect(lines.filter((line) => line.event === "usage.closed")).toEqual([
        expect.objectContaining({ level: "warn", cut_off: true, recorded: 30, written: 0, dropped: 0, pending: 30 }),
      ]);
    } finally {
      warnings.mockRestore();
      errors.mockRestore();
    }
  });

  it("on shutdown, a writer that fails to stop still leaves the closing line with the totals", async () => {
    const writes = vi.spyOn(process.stdout, "write");
    try {
      const writer = { write: async () => {}, close: async () => Promise.reject(new Error("worker gone")) };
      const buffer = new UsageBuffer({ write: writer.write, intervalMs: 60_000 });
      buffer.record(usageEvent({ requestId: "req_closing_0", keyId: "k", userId: "u", createdAt: new Date() }));
      await closeUsage(buffer, writer, { deadlineMs: 2_000 });
      flushLog();
      const lines = writes.mock.calls
        .flatMap(([chunk]) => String(chunk).trim().split("\n"))
        .filter((line) => line.includes('"usage.closed"'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines).toEqual([expect.objectContaining({ level: "info", recorded: 1, written: 1, pending: 0 })]);
    } finally {
      writes.mockRestore();
    }
  });

  it("writes a batch once 500 events are waiting, without waiting for the timer", async () => {
    const batches: number[] = [];
    const buffer = new UsageBuffer({ write: async (events) => void batches.push(events.length), intervalMs: 60_000 });
    // Ten keys, a hundred events each: all under the log cap, so each is kept as it is.
    const event = (i: number) =>
      usageEvent({ requestId: `req_batch_${i}`, keyId: `k${i % 10}`, userId: "u", createdAt: new Date() });
    for (let i = 0; i < 1_001; i++) buffer.record(event(i));
    await buffer.flush();
    expect(batches.slice(0, 2)).toEqual([500, 500]);
    await buffer.close();
    expect(batches.reduce((a, b) => a + b, 0)).toBe(1_001);
  });
});

describe("a key's last use", () => {
  it("is written by the usage flush, not on the request: once per key and minute, from the latest address", async () => {
    const buffer = new UsageBuffer({ write: (events) => writeUsage(events), intervalMs: 60_000 });
    const gate = testGate({ usage: buffer });
    const first = await newKey({}, "first use");
    const second = await newKey({}, "second key");
    const lastUse = (rowId: string) =>
      db.apiKey.findUniqueOrThrow({
        where: { id: rowId },
        select: { lastUsedAt: true, lastUsedIp: true, version: true },
      });
    const before = Date.now();
    expect((await gate(request("/api/v1/models", first.secret))).status).toBe(200);
    expect((await gate(request("/api/v1/models", second.secret))).status).toBe(200);
    expect((await gate(request("/api/v1/models", first.secret))).status).toBe(200);
    // Answered, and nothing written yet: the request did not wait for a write.
    expect(await lastUse(first.rowId)).toMatchObject({ lastUsedAt: null, lastUsedIp: null });
    await buffer.flush();
    const written = await lastUse(first.rowId);
    expect(written.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(before);
    expect(written).toMatchObject({ lastUsedIp: "203.0.113.9", version: 0 });
    // Each key its own time: the time of its own request, from this test's run.
    expect((await lastUse(second.rowId)).lastUsedAt!.getTime()).toBeGreaterThanOrEqual(before);
    // Within the minute the key is not marked again, so a later flush leaves the row as it was.
    expect((await gate(request("/api/v1/models", first.secret))).status).toBe(200);
    await buffer.close();
    expect(await lastUse(first.rowId)).toEqual(written);
  });
});

describe("a flood cannot grow the log without bound", () => {
  it("logs at most the cap per key per minute, and counts every request in the aggregates", async () => {
    const buffer = new UsageBuffer({
      write: (events) => writeUsage(events),
      intervalMs: 60_000,
      logPerKeyPerMinute: 3,
    });
    const gate = testGate({ usage: buffer });
    const key = await newKey({}, "flood");
    await revokeKey(actor, key.key.id, null);
    for (let i = 0; i < 8; i++) await gate(request("/api/v1/models", key.secret));
    await buffer.close();
    expect(await db.usageEvent.count({ where: { keyId: key.rowId } })).toBeLessThanOrEqual(6); // 3 a minute, two minutes at most
    expect((await db.usageHourly.aggregate({ where: { keyId: key.rowId }, _sum: { count: true } }))._sum.count).toBe(8);
  });

  it("keeps one waiting event for a key's requests over the cap, not one each, and counts every request", async () => {
    const batches: UsageEvent[][] = [];
    const buffer = new UsageBuffer({
      write: async (events) => {
        batches.push(events);
        await writeUsage(events);
      },
      intervalMs: 60_000,
      logPerKeyPerMinute: 3,
    });
    const key = await newKey({}, "tallied");
    const at = new Date();
    let n = 0;
    const record = (fields: Partial<UsageEvent> = {}) =>
      buffer.record({
        ...usageEvent({
          requestId: `req_tally_${key.rowId}_${n++}`,
          keyId: key.rowId,
          userId: actor.userId,
          createdAt: at,
        }),
        ...fields,
      });
    for (let i = 0; i < 203; i++) record();
    for (let i = 0; i < 50; i++) record({ status: 429, errorCode: "rate_limited" });
    for (let i = 0; i < 30; i++) record({ route: "create_chat_completion" });
    // A first use in the minute moves the key's last use: it is kept on its own, with its address.
    record({ touchesKey: true, ip: "198.51.100.7" });
    // 4xx like the 429s, but another error code: waiting apart, since errors are counted by code too.
    for (let i = 0; i < 10; i++) record({ status: 404, errorCode: "not_found" });

    expect(buffer.snapshot()).toMatchObject({ recorded: 294, pending: 294, dropped: 0 });
    await buffer.close();
    expect(batches).toHaveLength(1);
    const [batch] = batches;
    // 3 logged, one waiting event each for (200, list_models), (429, list_models), (404, list_models) and
    // (200, chat), and the touch.
    expect(batch).toHaveLength(8);
    expect(batch!.filter((event) => event.logged !== false)).toHaveLength(3);
    expect(batch!.map((event) => event.count ?? 1).reduce((a, b) => a + b, 0)).toBe(294);
    expect(buffer.snapshot()).toMatchObject({ recorded: 294, written: 294, pending: 0, dropped: 0 });

    const hourly = await db.usageHourly.findMany({
      where: { keyId: key.rowId },
      select: { route: true, statusClass: true, count: true },
      orderBy: [{ route: "asc" }, { statusClass: "asc" }],
    });
    expect(hourly).toEqual([
      { route: "create_chat_completion", statusClass: "2xx", count: 30 },
      { route: "list_models", statusClass: "2xx", count: 204 },
      { route: "list_models", statusClass: "4xx", count: 60 },
    ]);
    const errors = await db.usageErrorHourly.findMany({
      where: { keyId: key.rowId },
      select: { errorCode: true, count: true },
      orderBy: { errorCode: "asc" },
    });
    expect(errors).toEqual([
      { errorCode: "not_found", count: 10 },
      { errorCode: "rate_limited", count: 50 },
    ]);
    expect(await db.usageEvent.count({ where: { keyId: key.rowId } })).toBe(3);
    expect(await db.apiKey.findUniqueOrThrow({ where: { id: key.rowId }, select: { lastUsedIp: true } })).toEqual({
      lastUsedIp: "198.51.100.7",
    });
  });

  it("never adds to an event the writer already has: requests after a batch is taken wait for the next", async () => {
    const written: UsageEvent[][] = [];
    let release!: () => void;
    const buffer = new UsageBuffer({
      write: async (events) => {
        // What the writer was handed, as it was then (a worker gets a copy).
        written.push(events.map((event) => ({ ...event })));
        await new Promise<void>((resolve) => (release = resolve));
      },
      intervalMs: 60_000,
      logPerKeyPerMinute: 1,
    });
    const record = (i: number) =>
      buffer.record(usageEvent({ requestId: `req_taken_${i}`, keyId: "k", userId: "u", createdAt: new Date() }));
    for (let i = 0; i < 5; i++) record(i);
    const flushed = buffer.flush();
    // The batch is taken; these come while it is being written.
    for (let i = 5; i < 9; i++) record(i);
    release();
    // The same flush then takes what came meanwhile as a second batch.
    await vi.waitFor(() => expect(written).toHaveLength(2));
    release();
    await flushed;
    await buffer.close();
    expect(written.map((batch) => batch.map((event) => event.count ?? 1))).toEqual([[1, 4], [4]]);
    expect(buffer.snapshot()).toMatchObject({ recorded: 9, written: 9, pending: 0 });
  });

  it("redacts a key sent in the user agent and drops control characters", async () => {
    const buffer = new UsageBuffer({ write: (events) => writeUsage(events), intervalMs: 60_000 });
    const gate = testGate({ usage: buffer });
    const key = await newKey({}, "user agent");
    await gate(request("/api/v1/models", key.secret, { ua: `bot/1.0 ${key.secret}\u0085\u0007 end` }));
    await buffer.close();
    const row = await db.usageEvent.findFirstOrThrow({ where: { keyId: key.rowId } });
    expect(row.userAgent).toBe("bot/1.0 sk_dev_[redacted] end");
  });

  it("redacts a key split by a character the cleaning removes, or behind a key-shaped run ending in its prefix", async () => {
    const buffer = new UsageBuffer({ write: (events) => writeUsage(events), intervalMs: 60_000 });
    const gate = testGate({ usage: buffer });
    const key = await newKey({}, "hidden in the user agent");
    const body = key.secret.slice("sk_dev_".length);
    // 0x85 is allowed in a header (as obs-text); removed after the redaction, it left the whole key.
    await gate(
      request("/api/v1/models", key.secret, { ua: `bot ${key.secret.slice(0, 9)}\u0085${key.secret.slice(9)}` }),
    );
    // "sk_dev_AAAAAAsk" was redacted and the match went on after it, leaving "_dev_" and the key's body.
    await gate(request("/api/v1/models", key.secret, { ua: `bot sk_dev_AAAAAA${key.secret}` }));
    await buffer.close();
    const rows = await db.usageEvent.findMany({ where: { keyId: key.rowId } });
    expect(rows.map((row) => row.userAgent)).toEqual(["bot sk_dev_[redacted]", "bot sk_dev_[redacted]"]);
    for (const row of rows) expect(row.userAgent).not.toContain(body);
  });
});

describe("the aggregates add up", () => {
  it("two writers flushing the same hour at once add their counts (one statement each, no lost update)", async () => {
    const key = await newKey({}, "two writers");
    const at = new Date();
    const events = (prefix: string, n: number): UsageEvent[] =>
      Array.from({ length: n }, (_, i) =>
        usageEvent({
          requestId: `req_${prefix}_${key.rowId}_${i}`,
          keyId: key.rowId,
          userId: actor.userId,
          createdAt: at,
        }),
      );
    await Promise.all([writeUsage(events("a", 40)), writeUsage(events("b", 25)), writeUsage(events("c", 35))]);
    const row = await db.usageHourly.findFirstOrThrow({ where: { keyId: key.rowId, hour: hourOf(at) } });
    expect(row.count).toBe(100);
    expect(await db.usageEvent.count({ where: { keyId: key.rowId } })).toBe(100);
  });
});

describe("retention", () => {
  it("prunes the request log after USAGE_RETENTION_DAYS and keeps the aggregates for 400 days", async () => {
    const key = await newKey({}, "retention");
    const day = 86_400_000;
    const now = new Date();
    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * day);
    const event = (id: string, createdAt: Date) =>
      usageEvent({ requestId: `req_${id}_${key.rowId}`, keyId: key.rowId, userId: actor.userId, createdAt });
    await writeUsage([event("new", at(1)), event("old", at(31)), event("older", at(399)), event("oldest", at(401))]);
    await pruneOnce(db, { filesRetentionDays: 30, generationRetentionDays: 30, usageRetentionDays: 30 }, now);
    const kept = await db.usageEvent.findMany({ where: { keyId: key.rowId } });
    expect(kept.map((e) => e.requestId)).toEqual([`req_new_${key.rowId}`]);
    const hours = await db.usageHourly.findMany({ where: { keyId: key.rowId }, orderBy: { hour: "desc" } });
    expect(hours.map((h) => h.hour)).toEqual([hourOf(at(1)), hourOf(at(31)), hourOf(at(399))]);
  });
});
