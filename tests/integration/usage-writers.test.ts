// How the app writes a usage batch: on PostgreSQL through the gate's pool
// (lib/usage/postgres-usage-writer.ts), on SQLite in a worker thread
// (lib/usage/sqlite-usage-worker.mjs). Both drivers bypass the ORM, so the
// rows are read back through Prisma, as the dashboard reads them.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@/lib/auth/accounts";
import { db, dbProvider } from "@/lib/db";
import { databaseTarget, sqliteFile } from "@/lib/db-target";
import { createKey } from "@/lib/keys/lifecycle";
import { hourOf, type UsageEvent } from "@/lib/usage/event";
import { sqliteUsageWriter } from "@/lib/usage/sqlite-usage-writer";
import { runtime } from "@/lib/runtime/runtime";
import { projectRoot } from "../helpers/test-database";

let userId: string;

beforeAll(async () => {
  const user = await createAccount(`usage-writers-${Date.now()}@example.com`, "a long enough password");
  if (!user.ok) throw new Error(user.error);
  userId = user.userId;
});

async function keyRow(label: string) {
  const issued = await createKey({ userId, ip: null, userAgent: null }, { label, environment: "dev", expiresAt: null });
  return db.apiKey.findUniqueOrThrow({ where: { publicId: issued.key.id }, select: { id: true } });
}

/**
 * The test's own request ids. Not `req_...`: Prisma's startsWith is a LIKE, in
 * which `_` matches any character, so `req_app_` also matched an id the app
 * made for another test's request (`req_app6...`).
 */
const requestIdPrefix = (tag: string) => `writer-test-${tag}-`;

/** Three requests of one key (two of them marked as its first use in a minute) and one of another. */
function batch(tag: string, a: string, b: string, at: Date): UsageEvent[] {
  const event = (n: number, keyId: string, fields: Partial<UsageEvent> = {}): UsageEvent => ({
    requestId: `${requestIdPrefix(tag)}${n}`,
    keyId,
    userId,
    route: "list_models",
    status: 200,
    errorCode: null,
    latencyMs: n,
    ip: "203.0.113.7",
    userAgent: "writer-test/1.0",
    createdAt: new Date(at.getTime() + n),
    ...fields,
  });
  return [
    event(1, a, { touchesKey: true, ip: "203.0.113.1" }),
    event(2, a, { status: 403, errorCode: "insufficient_scope" }),
    event(3, a, { touchesKey: true, ip: "203.0.113.3", logged: false }),
    event(4, b, { touchesKey: true, ip: "198.51.100.4", userAgent: null }),
  ];
}

async function expectWritten(tag: string, a: string, b: string, at: Date) {
  const events = await db.usageEvent.findMany({
    where: { requestId: { startsWith: requestIdPrefix(tag) } },
    orderBy: { requestId: "asc" },
  });
  expect(
    events.map((e) => [e.requestId, e.keyId, e.status, e.errorCode, e.latencyMs, e.ip, e.userAgent, e.createdAt]),
  ).toEqual([
    [`${requestIdPrefix(tag)}1`, a, 200, null, 1, "203.0.113.1", "writer-test/1.0", new Date(at.getTime() + 1)],
    [
      `${requestIdPrefix(tag)}2`,
      a,
      403,
      "insufficient_scope",
      2,
      "203.0.113.7",
      "writer-test/1.0",
      new Date(at.getTime() + 2),
    ],
    [`${requestIdPrefix(tag)}4`, b, 200, null, 4, "198.51.100.4", null, new Date(at.getTime() + 4)],
  ]);
  const hourly = await db.usageHourly.findMany({
    where: { keyId: { in: [a, b] } },
    orderBy: [{ keyId: "asc" }, { statusClass: "asc" }],
  });
  const expected = [
    { keyId: a, statusClass: "2xx", count: 2 },
    { keyId: a, statusClass: "4xx", count: 1 },
    { keyId: b, statusClass: "2xx", count: 1 },
  ].sort((x, y) => x.keyId.localeCompare(y.keyId) || x.statusClass.localeCompare(y.statusClass));
  expect(hourly.map(({ keyId, statusClass, count, hour }) => ({ keyId, statusClass, count, hour }))).toEqual(
    expected.map((row) => ({ ...row, hour: hourOf(at) })),
  );
  // Each key's last use: its own latest marked request, its time and address (never another key's time).
  const keys = await db.apiKey.findMany({
    where: { id: { in: [a, b] } },
    select: { id: true, lastUsedAt: true, lastUsedIp: true, version: true },
  });
  expect(keys.find((k) => k.id === a)).toMatchObject({
    lastUsedAt: new Date(at.getTime() + 3),
    lastUsedIp: "203.0.113.3",
    version: 0,
  });
  expect(keys.find((k) => k.id === b)).toMatchObject({
    lastUsedAt: new Date(at.getTime() + 4),
    lastUsedIp: "198.51.100.4",
    version: 0,
  });
}

describe("a usage batch", () => {
  it(`is written by the app's writer on ${dbProvider()} as the dashboard reads it, and never moves a newer last use`, async () => {
    const [a, b] = [await keyRow("app a"), await keyRow("app b")];
    const at = new Date(Date.UTC(2026, 10, 23, 12, 0, 0));
    await runtime().usageWriter.write(batch("app", a.id, b.id, at));
    await expectWritten("app", a.id, b.id, at);
    // An older batch (another instance's, say) arrives later: the newer last use stays.
    await runtime().usageWriter.write([batch("app_late", a.id, b.id, new Date(at.getTime() - 1_000))[0]!]);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: a.id } })).lastUsedIp).toBe("203.0.113.3");
  });

  // The worker's own failures: SQLite only.
  if (dbProvider() === "sqlite") {
    const file = () => sqliteFile(databaseTarget(process.env.DATABASE_URL, projectRoot).url, projectRoot);

    it("waits for another connection's write lock in its event loop, and can be stopped while it waits", async () => {
      const key = await keyRow("locked");
      const holder = new Database(file(), { timeout: 5_000 });
      const writer = sqliteUsageWriter(file());
      const count = (tag: string) =>
        db.usageEvent.count({ where: { requestId: { startsWith: requestIdPrefix(tag) } } });
      try {
        holder.exec("BEGIN IMMEDIATE");
        const waited = writer.write(batch("waited", key.id, key.id, new Date()));
        await new Promise((resolve) => setTimeout(resolve, 300));
        holder.exec("COMMIT");
        await waited;
        expect(await count("waited")).toBe(3);

        // Stopped while it waits: the batch is reported as not written, and this process carries on.
        holder.exec("BEGIN IMMEDIATE");
        const stopped = writer.write(batch("stopped", key.id, key.id, new Date()));
        await new Promise((resolve) => setTimeout(resolve, 200));
        await writer.close();
        await expect(stopped).rejects.toThrow(/usage writer stopped/);
        holder.exec("COMMIT");
        expect(await count("stopped")).toBe(0);
      } finally {
        if (holder.inTransaction) holder.exec("ROLLBACK");
        holder.close();
        await writer.close();
      }
    });

    it("waits as long as another process holds the write lock, longer than five seconds, and drops nothing", async () => {
      const key = await keyRow("held");
      // Another process (an operator's script, a checkpoint loop) that holds the lock for six seconds.
      const holder = spawn(
        process.execPath,
        [
          "-e",
          `const db = new (require("better-sqlite3"))(process.argv[1], { timeout: 5000 });
           db.exec("BEGIN IMMEDIATE");
           process.stdout.write("locked\\n");
           Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 6000);
           db.exec("COMMIT");`,
          file(),
        ],
        { cwd: projectRoot, stdio: ["ignore", "pipe", "inherit"] },
      );
      const exited = new Promise((resolve) => holder.on("exit", resolve));
      await new Promise((resolve) => holder.stdout.once("data", resolve));
      const writer = sqliteUsageWriter(file());
      try {
        const started = Date.now();
        await writer.write(batch("held", key.id, key.id, new Date()));
        expect(Date.now() - started).toBeGreaterThan(5_000);
        expect(await db.usageEvent.count({ where: { requestId: { startsWith: requestIdPrefix("held") } } })).toBe(3);
      } finally {
        await exited;
        await writer.close();
      }
    }, 20_000);

    it("reports a batch it could not write, and starts a new thread for the next one", async () => {
      const key = await keyRow("recovered");
      const copy = path.join(mkdtempSync(path.join(os.tmpdir(), "keyport-usage-")), "copy.db");
      const writer = sqliteUsageWriter(copy);
      try {
        const at = new Date();
        // No database there yet: the thread cannot open it and dies; the batch is reported, not lost silently.
        await expect(writer.write(batch("lost", key.id, key.id, at))).rejects.toThrow(/SQLITE_CANTOPEN/);
        const source = new Database(file());
        source.exec(`VACUUM INTO '${copy}'`);
        source.close();
        await writer.write(batch("recovered", key.id, key.id, at));
        const written = new Database(copy, { readonly: true });
        const rows = written
          .prepare(`SELECT COUNT(*) AS n FROM "UsageEvent" WHERE "requestId" LIKE ?`)
          .get(`${requestIdPrefix("recovered")}%`);
        written.close();
        expect(rows).toEqual({ n: 3 });
      } finally {
        await writer.close();
      }
    });
  }
});
