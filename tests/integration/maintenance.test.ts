// The background worker prunes every table that would otherwise only grow,
// each by its documented retention, and keeps what is still in use.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createAccount } from "@/lib/auth/accounts";
import { createSession } from "@/lib/auth/session-store";
import { db } from "@/lib/db";
import { hourOf } from "@/lib/usage/event";
import { filesRoot } from "@/lib/files/store";
import { personalTeamId } from "@/lib/teams/personal-team";
import { runMaintenance, startMaintenance, type Maintenance } from "@/lib/maintenance/start-maintenance";

vi.hoisted(() => {
  process.env.FILES_RETENTION_DAYS = "30";
  process.env.GENERATION_RETENTION_DAYS = "30";
});

const DAY = 24 * 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms);

let scheduled: Maintenance | undefined;
afterAll(() => scheduled?.stop());

async function seed() {
  const email = `prune-${Date.now()}-${Math.random()}@example.com`;
  const user = await createAccount(email, "a long enough password");
  if (!user.ok) throw new Error(user.error);
  const userId = user.userId;
  const teamId = await personalTeamId(db, userId);
  const tag = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;

  const attempts = {
    old: await db.authAttempt.create({
      data: { kind: "sign_in", email, ip: "x", success: false, createdAt: ago(2 * DAY) },
    }),
    fresh: await db.authAttempt.create({ data: { kind: "sign_in", email, ip: "x", success: false } }),
  };
  const fresh = await createSession(userId, "203.0.113.1", null);
  const idle = await createSession(userId, "203.0.113.2", null, ago(8 * DAY));
  const expired = await createSession(userId, "203.0.113.3", null, ago(31 * DAY));
  await db.session.update({ where: { id: expired.id }, data: { lastSeenAt: ago(1000) } });
  const ended = {
    old: await db.endedSession.create({
      data: {
        tokenDigest: `old-${tag}`,
        userId,
        reason: "ended_elsewhere",
        endedAt: ago(8 * DAY),
        expiresAt: ago(DAY),
      },
    }),
    fresh: await db.endedSession.create({
      data: {
        tokenDigest: `new-${tag}`,
        userId,
        reason: "ended_elsewhere",
        endedAt: ago(DAY),
        expiresAt: ago(-6 * DAY),
      },
    }),
  };
  const generation = (status: string, createdAt: Date) =>
    db.generation.create({
      data: {
        id: `gen_${status}${tag}${createdAt.getTime()}`.slice(0, 40),
        teamId,
        userId,
        environment: "dev",
        apiKeyId: "k",
        model: "aurora-image-2",
        prompt: "p",
        status,
        createdAt,
      },
    });
  const generations = {
    oldDone: await generation("succeeded", ago(31 * DAY)),
    oldQueued: await generation("queued", ago(31 * DAY)),
    recentDone: await generation("failed", ago(DAY)),
  };
  const idempotency = {
    old: await db.idempotencyRecord.create({
      data: {
        apiKeyId: `k-${tag}`,
        key: "old",
        requestHash: "h",
        generationId: "g",
        createdAt: ago(25 * 60 * 60 * 1000),
      },
    }),
    fresh: await db.idempotencyRecord.create({
      data: { apiKeyId: `k-${tag}`, key: "new", requestHash: "h", generationId: "g" },
    }),
  };
  const file = async (name: string, createdAt: Date) => {
    const id = `file_${name}${tag}`;
    const storagePath = path.join(userId, id);
    await mkdir(path.join(filesRoot(), userId), { recursive: true });
    await writeFile(path.join(filesRoot(), storagePath), "bytes");
    return db.storedFile.create({
      data: {
        id,
        teamId,
        userId,
        environment: "dev",
        filename: "f",
        contentType: "text/plain",
        bytes: 5,
        storagePath,
        createdAt,
      },
    });
  };
  const files = { old: await file("old", ago(31 * DAY)), recent: await file("new", ago(DAY)) };
  const usageEvent = (id: string, createdAt: Date) =>
    db.usageEvent.create({
      data: {
        requestId: `req_${id}_${userId}`,
        keyId: "k",
        userId,
        route: "list_models",
        status: 200,
        latencyMs: 1,
        ip: "203.0.113.9",
        createdAt,
      },
    });
  const usageHour = (daysAgo: number) =>
    db.usageHourly.create({
      data: {
        keyId: `k_${userId}`,
        hour: hourOf(ago(daysAgo * DAY)),
        route: "list_models",
        statusClass: "2xx",
        userId,
        count: 1,
      },
    });
  const usageErrorHour = (daysAgo: number) =>
    db.usageErrorHourly.create({
      data: { keyId: `k_${userId}`, hour: hourOf(ago(daysAgo * DAY)), errorCode: "rate_limited", userId, count: 1 },
    });
  const usage = {
    oldEvent: await usageEvent("old", ago(31 * DAY)),
    recentEvent: await usageEvent("new", ago(DAY)),
    oldHour: await usageHour(401),
    oldErrorHour: await usageErrorHour(401),
    keptErrorHour: await usageErrorHour(399),
    keptHour: await usageHour(31),
  };
  return { attempts, sessions: { fresh, idle, expired }, ended, generations, idempotency, files, usage };
}

async function exists(seeded: Awaited<ReturnType<typeof seed>>) {
  const has = async (count: Promise<number>) => (await count) === 1;
  return {
    oldAttempt: await has(db.authAttempt.count({ where: { id: seeded.attempts.old.id } })),
    freshAttempt: await has(db.authAttempt.count({ where: { id: seeded.attempts.fresh.id } })),
    freshSession: await has(db.session.count({ where: { id: seeded.sessions.fresh.id } })),
    idleSession: await has(db.session.count({ where: { id: seeded.sessions.idle.id } })),
    expiredSession: await has(db.session.count({ where: { id: seeded.sessions.expired.id } })),
    oldEnded: await has(db.endedSession.count({ where: { tokenDigest: seeded.ended.old.tokenDigest } })),
    freshEnded: await has(db.endedSession.count({ where: { tokenDigest: seeded.ended.fresh.tokenDigest } })),
    oldDone: await has(db.generation.count({ where: { id: seeded.generations.oldDone.id } })),
    oldQueued: await has(db.generation.count({ where: { id: seeded.generations.oldQueued.id } })),
    recentDone: await has(db.generation.count({ where: { id: seeded.generations.recentDone.id } })),
    oldIdempotency: await has(db.idempotencyRecord.count({ where: { id: seeded.idempotency.old.id } })),
    freshIdempotency: await has(db.idempotencyRecord.count({ where: { id: seeded.idempotency.fresh.id } })),
    oldFile: await has(db.storedFile.count({ where: { id: seeded.files.old.id } })),
    oldFileBytes: existsSync(path.join(filesRoot(), seeded.files.old.storagePath)),
    recentFile: await has(db.storedFile.count({ where: { id: seeded.files.recent.id } })),
    recentFileBytes: existsSync(path.join(filesRoot(), seeded.files.recent.storagePath)),
    oldUsageEvent: await has(db.usageEvent.count({ where: { requestId: seeded.usage.oldEvent.requestId } })),
    recentUsageEvent: await has(db.usageEvent.count({ where: { requestId: seeded.usage.recentEvent.requestId } })),
    oldUsageHour: await has(
      db.usageHourly.count({ where: { keyId: seeded.usage.oldHour.keyId, hour: seeded.usage.oldHour.hour } }),
    ),
    keptUsageHour: await has(
      db.usageHourly.count({ where: { keyId: seeded.usage.keptHour.keyId, hour: seeded.usage.keptHour.hour } }),
    ),
    oldUsageErrorHour: await has(db.usageErrorHourly.count({ where: seeded.usage.oldErrorHour })),
    keptUsageErrorHour: await has(db.usageErrorHourly.count({ where: seeded.usage.keptErrorHour })),
  };
}

const AFTER = {
  oldAttempt: false,
  freshAttempt: true,
  freshSession: true,
  idleSession: false,
  expiredSession: false,
  oldEnded: false,
  freshEnded: true,
  oldDone: false,
  oldQueued: true,
  recentDone: true,
  oldIdempotency: false,
  freshIdempotency: true,
  oldFile: false,
  oldFileBytes: false,
  recentFile: true,
  recentFileBytes: true,
  oldUsageEvent: false,
  recentUsageEvent: true,
  oldUsageHour: false,
  keptUsageHour: true,
  oldUsageErrorHour: false,
  keptUsageErrorHour: true,
};

describe("pruning", () => {
  it("removes what passed its retention, bytes and rows, and keeps the rest", async () => {
    const seeded = await seed();
    expect(Object.values(await exists(seeded)).every(Boolean)).toBe(true);
    const counts = await runMaintenance();
    expect(counts).not.toBeNull();
    for (const value of Object.values(counts!)) expect(value).toBeGreaterThanOrEqual(1);
    expect(await exists(seeded)).toEqual(AFTER);
  });

  it("runs on its own on the worker's schedule", async () => {
    const seeded = await seed();
    scheduled = startMaintenance(100);
    await vi.waitFor(async () => expect(await exists(seeded)).toEqual(AFTER), { timeout: 10_000, interval: 100 });
  });
});
