// The key cache's shortcut on SQLite: the store's change mark (the WAL index
// header, lib/keys/wal-change-mark.ts) lets a cached key be confirmed without
// reading its version, but only while nothing at all has been committed since
// the entry was last checked. These tests prove the shortcut is taken, and
// that any commit ends it at once: from this process's ORM connection, and
// from the operator CLI in a process of its own. On PostgreSQL there is no
// mark, and every hit reads the version.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { db, dbProvider } from "@/lib/db";
import { databaseTarget, sqliteFile } from "@/lib/db-target";
import { TextReply } from "@/lib/http/text-reply";
import { cachedKeyLookup } from "@/lib/keys/key-cache";
import type { KeyStore } from "@/lib/keys/key-store";
import { createKey, revokeKey, updateRestrictions } from "@/lib/keys/lifecycle";
import { verifyApiKey } from "@/lib/keys/verify";
import { walChangeMark } from "@/lib/keys/wal-change-mark";
import { runtime } from "@/lib/runtime/runtime";
import { createGate } from "@/lib/public-api/gate";
import { MemoryRateLimitStore } from "@/lib/public-api/rate-limit";
import { DISCARD_USAGE } from "@/lib/usage/event";
import { projectRoot } from "../helpers/test-database";
import { bareAccount } from "../helpers/bare-account";

async function newKey() {
  const user = await bareAccount(`change-mark.${randomUUID()}@example.com`);
  const actor = { userId: user.id, ip: null, userAgent: null };
  const { key, secret } = await createKey(actor, { label: "change mark", environment: "dev", expiresAt: null });
  return { actor, publicId: key.id, secret };
}

/** The app's key store, counting the version reads it answers. */
function countingStore() {
  const store = runtime().keyStore;
  const counts = { versionReads: 0 };
  const counting: KeyStore = {
    ...store,
    versionOf: (id) => {
      counts.versionReads++;
      return store.versionOf(id);
    },
  };
  return { store: counting, counts };
}

/** The operator CLI, in its own process; resolves with its exit code. */
function admin(args: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(projectRoot, "node_modules", ".bin", "tsx"),
      ["--conditions=react-server", "scripts/admin.mts", ...args],
      { cwd: projectRoot, env: { ...process.env }, stdio: "ignore" },
    );
    child.on("error", reject);
    child.on("close", resolve);
  });
}

if (dbProvider() === "sqlite") {
  describe("the key cache on SQLite", () => {
    it("confirms a cached key without reading its version while nothing is committed", async () => {
      const { secret } = await newKey();
      const { store, counts } = countingStore();
      const lookup = cachedKeyLookup(store);
      expect(await verifyApiKey(secret, new Date(), lookup)).toMatchObject({ ok: true, cached: false });
      for (let i = 0; i < 3; i++) {
        expect(await verifyApiKey(secret, new Date(), lookup)).toMatchObject({ ok: true, cached: true });
      }
      expect(lookup.stats).toMatchObject({ hits: 3, unchanged: 3 });
      expect(counts.versionReads).toBe(0);
    });

    it("reads the version after any commit, and keeps the entry when the key did not change", async () => {
      const { secret } = await newKey();
      const { store, counts } = countingStore();
      const lookup = cachedKeyLookup(store);
      await verifyApiKey(secret, new Date(), lookup);
      await db.user.create({ data: { email: `unrelated.${randomUUID()}@example.com` } });
      expect(await verifyApiKey(secret, new Date(), lookup)).toMatchObject({ ok: true, cached: true });
      expect(counts.versionReads).toBe(1);
      // Checked once, it is confirmed by the mark again.
      expect(await verifyApiKey(secret, new Date(), lookup)).toMatchObject({ ok: true, cached: true });
      expect(counts.versionReads).toBe(1);
      expect(lookup.stats.unchanged).toBe(1);
    });

    it("sees a revocation and an edit from the ORM's connection on the very next verification", async () => {
      const { actor, publicId, secret } = await newKey();
      const lookup = cachedKeyLookup(runtime().keyStore);
      await verifyApiKey(secret, new Date(), lookup);
      expect(await verifyApiKey(secret, new Date(), lookup)).toMatchObject({ ok: true, cached: true });
      expect(lookup.stats.unchanged).toBe(1);

      await updateRestrictions(actor, publicId, { scopes: ["catalog:read"], allowedIps: null, rateLimit: null });
      const edited = await verifyApiKey(secret, new Date(), lookup);
      expect(edited.ok && edited.key.restrictions.scopes).toEqual(["catalog:read"]);

      await revokeKey(actor, publicId, null);
      expect(await verifyApiKey(secret, new Date(), lookup)).toMatchObject({ ok: false, reason: "revoked" });
    });

    it("lets the gate answer at once, with no promise, and still refuse a key revoked a moment before", async () => {
      const { actor, publicId, secret } = await newKey();
      const gate = createGate({
        keys: cachedKeyLookup(runtime().keyStore),
        rateLimits: new MemoryRateLimitStore(),
        usage: DISCARD_USAGE,
        decoys: runtime().decoyAlerts,
      });
      const request = () =>
        new Request("http://localhost/api/v1/models", {
          headers: { authorization: `Bearer ${secret}`, "x-keyport-peer-ip": "203.0.113.9" },
        });
      // The driver is synchronous: even the first answer, which reads the row, needs no promise.
      const first = gate(request());
      expect(first).toBeInstanceOf(TextReply);
      expect((first as TextReply).status).toBe(200);
      const cached = gate(request());
      expect(cached).toBeInstanceOf(TextReply);
      expect((cached as TextReply).status).toBe(200);

      await revokeKey(actor, publicId, null);
      const refused = await gate(request());
      expect(refused.status).toBe(401);
      expect(JSON.parse((refused as TextReply).text)).toMatchObject({ error: { code: "revoked_api_key" } });
    });

    it("sees a revocation written by plain SQL from another connection on the very next verification", async () => {
      const { publicId, secret } = await newKey();
      const lookup = cachedKeyLookup(runtime().keyStore);
      await verifyApiKey(secret, new Date(), lookup);
      expect(await verifyApiKey(secret, new Date(), lookup)).toMatchObject({ ok: true, cached: true });
      const other = new Database(sqliteFile(databaseTarget(process.env.DATABASE_URL, projectRoot).url, projectRoot));
      try {
        // No "version" in it: the table's trigger raises it.
        other.prepare(`UPDATE "ApiKey" SET "revokedAt" = ? WHERE "publicId" = ?`).run(Date.now(), publicId);
      } finally {
        other.close();
      }
      expect(await verifyApiKey(secret, new Date(), lookup)).toMatchObject({ ok: false, reason: "revoked" });
    });

    it("sees a revocation by the operator CLI, in its own process, on the very next verification", async () => {
      const { publicId, secret } = await newKey();
      const lookup = cachedKeyLookup(runtime().keyStore);
      await verifyApiKey(secret, new Date(), lookup);
      expect(await verifyApiKey(secret, new Date(), lookup)).toMatchObject({ ok: true, cached: true });
      const unchangedBefore = lookup.stats.unchanged;
      expect(unchangedBefore).toBe(1);

      expect(await admin(["key:revoke", "--id", publicId])).toBe(0);
      expect(await verifyApiKey(secret, new Date(), lookup)).toMatchObject({ ok: false, reason: "revoked" });
      expect(lookup.stats.unchanged).toBe(unchangedBefore);
    });
  });
} else {
  describe("the key cache on PostgreSQL", () => {
    it("has no change mark: every hit reads the version", async () => {
      const { secret } = await newKey();
      const { store, counts } = countingStore();
      const lookup = cachedKeyLookup(store);
      for (let i = 0; i < 3; i++) expect((await verifyApiKey(secret, new Date(), lookup)).ok).toBe(true);
      expect(lookup.stats).toMatchObject({ hits: 2, unchanged: 0 });
      expect(counts.versionReads).toBe(2);
    });
  });
}

describe("the WAL change mark", () => {
  const header = (first: string, second: string) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-mark-"));
    const file = path.join(dir, "db.sqlite");
    writeFileSync(file, "");
    writeFileSync(
      `${file}-shm`,
      Buffer.concat([Buffer.from(first.padEnd(48, "\0")), Buffer.from(second.padEnd(48, "\0"))]),
    );
    return file;
  };

  it("reads the header while its two copies agree, and tells nothing while a writer is between them", () => {
    const agreed = walChangeMark(header("commit 7", "commit 7"));
    expect(agreed.read()).toHaveLength(96);
    const between = walChangeMark(header("commit 7", "commit 8"));
    expect(between.read()).toBeNull();
    agreed.close();
    between.close();
  });

  it("tells nothing until the -shm file exists", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-mark-"));
    const file = path.join(dir, "db.sqlite");
    writeFileSync(file, "");
    const mark = walChangeMark(file);
    expect(mark.read()).toBeNull();
    writeFileSync(`${file}-shm`, Buffer.alloc(96));
    expect(mark.read()).toHaveLength(96);
    mark.close();
  });

  it("stops trusting a -shm file once it was deleted, even if a new one appears", () => {
    const file = header("commit 7", "commit 7");
    const mark = walChangeMark(file);
    expect(mark.read()).toHaveLength(96);
    // Deleted (SQLite's last connection closed, or an operator) and made again: the open one would read the same forever.
    unlinkSync(`${file}-shm`);
    writeFileSync(`${file}-shm`, Buffer.alloc(96));
    expect(mark.read()).toBeNull();
    expect(mark.read()).toBeNull();
    mark.close();
  });

  it("reads the -shm file beside the database's real path, as SQLite does, not one beside a link to it", () => {
    const real = header("commit 7", "commit 7");
    const link = path.join(path.dirname(real), "link.sqlite");
    symlinkSync(real, link);
    writeFileSync(`${link}-shm`, Buffer.alloc(96)); // a stray file beside the link: never SQLite's
    const mark = walChangeMark(link);
    expect(mark.read()).toBe(walChangeMark(real).read());
    expect(mark.read()).not.toBe(Buffer.alloc(96).toString("latin1"));
    mark.close();
  });
});
