// The service accounts migration on a database the previous schema made and
// filled (teams with their activity chains): every key stays as it was, owned
// by no service account, and a key's version still rises when anything but its
// use changes (the SQLite table is rebuilt, so its trigger must be made again,
// watching the new column too).
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { databaseMigratedUpTo, inColumnsOf, rawSql } from "../helpers/earlier-release";
import { projectRoot, type TestDatabase } from "../helpers/test-database";

const run = promisify(execFile);
const BEFORE = "20261127050956_team_audit_chain";

const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const database of databases) await database.drop();
});

async function seed(url: string) {
  const now = new Date("2026-11-26T10:00:00.000Z").toISOString();
  const sql = (text: string, params: unknown[]) => rawSql(url, text, params);
  await sql('INSERT INTO "User" ("id", "email", "updatedAt", "createdAt") VALUES (?, ?, ?, ?)', [
    "u-ada",
    "ada@example.com",
    now,
    now,
  ]);
  await sql('INSERT INTO "Team" ("id", "slug", "name", "createdAt") VALUES (?, ?, ?, ?)', [
    "t-pay",
    "payments",
    "Payments",
    now,
  ]);
  await sql('INSERT INTO "Membership" ("teamId", "userId", "role", "createdAt") VALUES (?, ?, ?, ?)', [
    "t-pay",
    "u-ada",
    "owner",
    now,
  ]);
  for (const [id, successorId] of [
    ["k-new", null],
    ["k-old", "k-new"],
  ] as const) {
    await sql(
      'INSERT INTO "ApiKey" ("id", "publicId", "teamId", "userId", "environment", "label", "digest", "displayFragment", "createdAt", "successorId", "scopes", "version") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        id,
        `key_${id}`,
        "t-pay",
        "u-ada",
        "prod",
        `label ${id}`,
        `digest-${id}`,
        "sk_prod_Ab…Cd",
        now,
        successorId,
        "all",
        3,
      ],
    );
  }
}

const keys = (url: string) => rawSql(url, 'SELECT * FROM "ApiKey" ORDER BY "id"');

describe("the service accounts migration, on a database the previous schema made", () => {
  it("keeps every key as it was, owned by no service account, and a key's version still rises on a change", async () => {
    const database = await databaseMigratedUpTo(BEFORE);
    databases.push(database);
    await seed(database.url);
    const before = await keys(database.url);
    await run(path.join(projectRoot, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_URL: database.url },
    });
    const after = await keys(database.url);
    expect(after.map((row) => row.serviceAccountId)).toEqual([null, null]);
    expect(inColumnsOf(after, before[0]!)).toEqual(before);

    // A service account takes a key: the key's version rises (each instance's cache sees the change); its use does not.
    await rawSql(
      database.url,
      'INSERT INTO "ServiceAccount" ("id", "teamId", "name", "nameKey", "createdAt") VALUES (?, ?, ?, ?, ?)',
      ["sa-ci", "t-pay", "CI", "ci", new Date().toISOString()],
    );
    await rawSql(database.url, 'UPDATE "ApiKey" SET "serviceAccountId" = ? WHERE "id" = ?', ["sa-ci", "k-new"]);
    await rawSql(database.url, 'UPDATE "ApiKey" SET "lastUsedIp" = ? WHERE "id" = ?', ["203.0.113.9", "k-old"]);
    const versions = (await keys(database.url)).map((row) => [row.id, Number(row.version)]);
    expect(versions).toEqual([
      ["k-new", 4],
      ["k-old", 3],
    ]);
    // A service account's name is unique in its team whatever its case (nameKey), and its key cannot outlive it.
    await expect(
      rawSql(
        database.url,
        'INSERT INTO "ServiceAccount" ("id", "teamId", "name", "nameKey", "createdAt") VALUES (?, ?, ?, ?, ?)',
        ["sa-ci-2", "t-pay", "ci", "ci", new Date().toISOString()],
      ),
    ).rejects.toThrow(/unique/i);
    await expect(rawSql(database.url, 'DELETE FROM "ServiceAccount" WHERE "id" = ?', ["sa-ci"])).rejects.toThrow(
      /foreign key/i,
    );
  });
});
