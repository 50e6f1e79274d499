// The teams migration on a database the previous schema made and filled:
// every account gets its personal team and owns it; its keys (a rotation's
// pair included), files and generations move into it; nothing else changes,
// and the activity chains still verify.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { chainHash } from "@/lib/audit-chain";
import { databaseMigratedUpTo, inColumnsOf, rawSql } from "../helpers/earlier-release";
import { projectRoot, type TestDatabase } from "../helpers/test-database";

const run = promisify(execFile);
const BEFORE_TEAMS = "20261126233000_account_tokens_cleared";

const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const database of databases) await database.drop();
});

/** Rows as the previous release wrote them, in SQL. */
async function seed(url: string) {
  const now = new Date("2026-11-20T10:00:00.000Z").toISOString();
  const sql = (text: string, params: unknown[]) => rawSql(url, text, params);
  for (const [id, email] of [
    ["u-ada", "ada@example.com"],
    ["u-bob", "bob@example.com"],
    ["u-cy", "cy@example.com"],
  ]) {
    await sql('INSERT INTO "User" ("id", "email", "updatedAt", "createdAt") VALUES (?, ?, ?, ?)', [
      id,
      email,
      now,
      now,
    ]);
  }
  const key = (id: string, userId: string, environment: string, successorId: string | null) =>
    sql(
      'INSERT INTO "ApiKey" ("id", "publicId", "userId", "environment", "label", "digest", "displayFragment", "createdAt", "successorId") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [id, `key_${id}`, userId, environment, `label ${id}`, `digest-${id}`, "sk_dev_Ab…Cd", now, successorId],
    );
  await key("k-new", "u-ada", "dev", null);
  await key("k-old", "u-ada", "dev", "k-new");
  await key("k-prod", "u-ada", "prod", null);
  await key("k-bob", "u-bob", "dev", null);
  await sql(
    'INSERT INTO "StoredFile" ("id", "userId", "environment", "filename", "contentType", "bytes", "storagePath", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ["file_ada", "u-ada", "dev", "notes.txt", "text/plain", 5, "u-ada/file_ada", now],
  );
  await sql(
    'INSERT INTO "Generation" ("id", "userId", "environment", "apiKeyId", "model", "prompt", "status", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ["gen_bob", "u-bob", "dev", "k-bob", "aurora-image-2", "a lighthouse", "succeeded", now],
  );
  // Each account's activity chain, chained with SHA-256 as before the switch: a sign-in, and each key's creation
  // (the release always recorded one, and audit:verify asks each key of a team for it).
  const chains: Record<string, (string | null)[]> = {
    "u-ada": [null, "key_k-old", "key_k-new", "key_k-prod"],
    "u-bob": ["key_k-bob"],
  };
  for (const [userId, keys] of Object.entries(chains)) {
    let previous = "";
    for (const [index, keyId] of keys.entries()) {
      const row = {
        seq: index + 1,
        action: keyId ? "key.created" : "auth.sign_in",
        keyId,
        ip: "192.0.2.1",
        userAgent: null,
        details: null,
        createdAt: now,
      };
      previous = chainHash(previous, userId, row);
      await sql(
        'INSERT INTO "AuditEvent" ("id", "userId", "seq", "action", "keyId", "ip", "createdAt", "hash") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [`e-${userId}-${row.seq}`, userId, row.seq, row.action, keyId, row.ip, now, previous],
      );
    }
    await sql('UPDATE "User" SET "auditSeq" = ?, "auditHash" = ? WHERE "id" = ?', [keys.length, previous, userId]);
  }
}

/** A row without its version: filling a column raises a key's version on PostgreSQL (its trigger counts every column). */
function withoutVersion(row: Record<string, unknown>) {
  const copy = { ...row };
  delete copy.version;
  return copy;
}

const rows = (url: string, table: string, order: string) => rawSql(url, `SELECT * FROM "${table}" ORDER BY "${order}"`);

describe("the teams migration, on a database the previous schema made", () => {
  it("gives each account its personal team and moves its keys, files and generations into it, losing nothing", async () => {
    const database = await databaseMigratedUpTo(BEFORE_TEAMS);
    databases.push(database);
    await seed(database.url);
    const before = {
      keys: await rows(database.url, "ApiKey", "id"),
      files: await rows(database.url, "StoredFile", "id"),
      generations: await rows(database.url, "Generation", "id"),
      audit: await rows(database.url, "AuditEvent", "id"),
      users: await rows(database.url, "User", "id"),
    };

    await run(path.join(projectRoot, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_URL: database.url },
    });

    const teams = await rows(database.url, "Team", "personalOfId");
    expect(teams.map((team) => [team.personalOfId, team.name])).toEqual([
      ["u-ada", "Personal"],
      ["u-bob", "Personal"],
      ["u-cy", "Personal"],
    ]);
    for (const team of teams) expect(team.slug).toMatch(/^personal-[0-9a-f]{12}$/);
    expect(new Set(teams.map((team) => team.slug)).size).toBe(3);
    const teamOf = new Map(teams.map((team) => [team.personalOfId as string, team.id as string]));
    expect((await rows(database.url, "Membership", "userId")).map((row) => [row.userId, row.teamId, row.role])).toEqual(
      [
        ["u-ada", teamOf.get("u-ada"), "owner"],
        ["u-bob", teamOf.get("u-bob"), "owner"],
        ["u-cy", teamOf.get("u-cy"), "owner"],
      ],
    );

    // Every row as it was, with its account's team added (a key's version may rise: filling a column is a change).
    const moved = (list: Record<string, unknown>[]) =>
      list.map((row) => ({ ...withoutVersion(row), teamId: teamOf.get(row.userId as string) }));
    const after = {
      keys: await rows(database.url, "ApiKey", "id"),
      files: await rows(database.url, "StoredFile", "id"),
      generations: await rows(database.url, "Generation", "id"),
    };
    // Columns later migrations added (a service account's, say) are left out, and must be empty.
    expect(inColumnsOf(after.keys.map(withoutVersion), moved(before.keys)[0]!)).toEqual(moved(before.keys));
    expect(after.files).toEqual(moved(before.files));
    expect(after.generations).toEqual(moved(before.generations));
    expect(await rows(database.url, "AuditEvent", "id")).toEqual(before.audit);
    expect(await rows(database.url, "User", "id")).toEqual(before.users);

    // The chains still hold: the switch (audit:key) checks every chain and signs nothing if one fails.
    const verified = await run(
      path.join(projectRoot, "node_modules", ".bin", "tsx"),
      ["--conditions=react-server", path.join(projectRoot, "scripts", "admin.mts"), "audit:key"],
      { cwd: projectRoot, env: { ...process.env, DATABASE_URL: database.url } },
    );
    // The later team-chain migration is applied too, without db:deploy's start step: the three personal teams'
    // chains are empty and unsigned, and are signed with the rest (tests/integration/team-chain-migration.test.ts).
    expect(JSON.parse(verified.stdout)).toEqual({ signed_accounts: 3, signed_teams: 3 });
  }, 120_000);
});
