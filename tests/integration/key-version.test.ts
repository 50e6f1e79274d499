// Every change to a key raises its version (lib/db.ts), which is what each
// instance's key cache checks on every request; recording its use does not.
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@/lib/auth/accounts";
import { db, dbProvider } from "@/lib/db";
import { createKey, renameKey, reportLeak, revokeKey, rotateKey, updateRestrictions } from "@/lib/keys/lifecycle";
import { claimKeyUse, verifyApiKey } from "@/lib/keys/verify";
import { writeUsage } from "../helpers/usage-writer";

let actor: { userId: string; ip: null; userAgent: null };

beforeAll(async () => {
  const user = await createAccount(`key-version-${Date.now()}@example.com`, "a long enough password");
  if (!user.ok) throw new Error(user.error);
  actor = { userId: user.userId, ip: null, userAgent: null };
});

const version = async (publicId: string) =>
  (await db.apiKey.findUniqueOrThrow({ where: { publicId }, select: { version: true } })).version;

async function newKey(label: string) {
  return createKey(actor, { label, environment: "dev", expiresAt: null });
}

describe("a key's version", () => {
  it("starts at 0 and rises with a rename, a change of access, a rotation and a revocation", async () => {
    const { key } = await newKey("versioned");
    expect(await version(key.id)).toBe(0);
    await renameKey(actor, key.id, "renamed");
    expect(await version(key.id)).toBe(1);
    await updateRestrictions(actor, key.id, { scopes: ["catalog:read"], allowedIps: null, rateLimit: null });
    expect(await version(key.id)).toBe(2);
    const rotated = await rotateKey(actor, key.id, "1h");
    expect(await version(key.id)).toBe(3);
    await revokeKey(actor, key.id, null);
    expect(await version(key.id)).toBe(4);
    expect(await version(rotated.key.id)).toBe(0);
  });

  it("rises when a key is reported leaked, and when an update reaches it through updateMany", async () => {
    const { key } = await newKey("leaked");
    await reportLeak(actor, key.id);
    expect(await version(key.id)).toBe(1);
    await db.apiKey.updateMany({ where: { publicId: key.id }, data: { label: "bulk" } });
    expect(await version(key.id)).toBe(2);
  });

  it("rises when a key is changed by plain SQL that forgot it, once when the SQL raised it itself", async () => {
    const { key } = await newKey("by hand");
    await db.$executeRaw`UPDATE "ApiKey" SET "revokedAt" = ${new Date()} WHERE "publicId" = ${key.id}`;
    expect(await version(key.id)).toBe(1);
    await db.$executeRaw`UPDATE "ApiKey" SET "label" = ${"by hand, again"} WHERE "publicId" = ${key.id}`;
    expect(await version(key.id)).toBe(2);
    await db.$executeRaw`UPDATE "ApiKey" SET "scopes" = ${"catalog:read"}, "version" = "version" + 1 WHERE "publicId" = ${key.id}`;
    expect(await version(key.id)).toBe(3);
    // Writing a value it already has changes nothing.
    await db.$executeRaw`UPDATE "ApiKey" SET "scopes" = ${"catalog:read"} WHERE "publicId" = ${key.id}`;
    expect(await version(key.id)).toBe(3);
  });

  if (dbProvider() === "sqlite") {
    it("is raised by a trigger that watches every column of the key but its last use (SQLite lists them)", async () => {
      const [trigger] = await db.$queryRaw<{ sql: string }[]>`
        SELECT "sql" FROM "sqlite_master" WHERE "type" = 'trigger' AND "name" = 'ApiKey_version_rises'`;
      expect(trigger, "the trigger is gone: a migration that rebuilt ApiKey must create it again").toBeDefined();
      const columns = await db.$queryRaw<{ name: string }[]>`SELECT "name" FROM pragma_table_info('ApiKey')`;
      const watched = columns
        .map(({ name }) => name)
        .filter((name) => !["lastUsedAt", "lastUsedIp", "version"].includes(name));
      for (const name of watched)
        expect(trigger!.sql, `the trigger does not watch ${name}`).toContain(`NEW."${name}" IS NOT`);
    });
  }

  it("stays when the gate records a use", async () => {
    const { key, secret } = await newKey("used");
    const verified = await verifyApiKey(secret);
    if (!verified.ok) throw new Error("the new key did not verify");
    const at = new Date();
    expect(claimKeyUse(verified.key, at)).toBe(true);
    // The usage flush writes the last use, with the request's event.
    await writeUsage([
      {
        requestId: `req_used_${Date.now()}`,
        keyId: verified.key.id,
        userId: verified.key.userId,
        route: "list_models",
        status: 200,
        errorCode: null,
        latencyMs: 1,
        ip: "203.0.113.1",
        userAgent: null,
        createdAt: at,
        touchesKey: true,
      },
    ]);
    const row = await db.apiKey.findUniqueOrThrow({ where: { publicId: key.id } });
    expect(row).toMatchObject({ lastUsedIp: "203.0.113.1", lastUsedAt: at, version: 0 });
  });
});
