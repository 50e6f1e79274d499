// A database as an earlier release left it, for tests of a migration on data
// the previous schema held: the committed migrations up to and including one
// name, applied by `prisma migrate deploy` from a copy of the folder cut there
// (KEYPORT_MIGRATIONS_PATH, prisma.config.ts). Rows go in by raw SQL, as that
// release's code wrote them; this release's client may not read its tables.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { databaseTarget } from "@/lib/db-target";
import { createTestDatabase, projectRoot, type TestDatabase } from "./test-database";

const run = promisify(execFile);

/** A new database with the migrations up to `lastMigration` (a folder name) applied, and none after it. */
export async function databaseMigratedUpTo(lastMigration: string): Promise<TestDatabase> {
  const database = await createTestDatabase();
  const migrations = databaseTarget(database.url, projectRoot).migrationsPath;
  const names = readdirSync(migrations).filter((name) => /^\d{14}_/.test(name));
  if (!names.includes(lastMigration)) throw new Error(`No migration named ${lastMigration} in ${migrations}.`);
  const copy = mkdtempSync(path.join(os.tmpdir(), "keyport-earlier-migrations-"));
  try {
    cpSync(path.join(migrations, "migration_lock.toml"), path.join(copy, "migration_lock.toml"));
    for (const name of names.filter((name) => name <= lastMigration)) {
      cpSync(path.join(migrations, name), path.join(copy, name), { recursive: true });
    }
    await run(path.join(projectRoot, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_URL: database.url, KEYPORT_MIGRATIONS_PATH: copy },
    });
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  return database;
}

/** SQL on a database no Prisma client of the test is on ("?" placeholders on both providers). */
export async function rawSql(url: string, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  if (url.startsWith("file:")) {
    const sqlite = new Database(url.slice("file:".length));
    try {
      const statement = sqlite.prepare(sql);
      if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
      statement.run(...params);
      return [];
    } finally {
      sqlite.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let n = 0;
    return (
      await client.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      )
    ).rows;
  } finally {
    await client.end();
  }
}

/**
 * Rows read after migrating to the newest schema, cut to the columns `like` has (the rows as the migration under
 * test should leave them), so that columns later migrations added do not count; each of those must be empty, or hold
 * the default `defaults` names for it (a team's policies start as "developers", say).
 */
export function inColumnsOf(
  rows: Record<string, unknown>[],
  like: Record<string, unknown>,
  defaults: Record<string, unknown> = {},
): Record<string, unknown>[] {
  const keep = new Set(Object.keys(like));
  return rows.map((row) => {
    for (const [column, value] of Object.entries(row)) {
      const expected = Object.hasOwn(defaults, column) ? defaults[column] : null;
      if (!keep.has(column) && value !== expected) throw new Error(`a later column ${column} holds ${String(value)}`);
    }
    return Object.fromEntries(Object.entries(row).filter(([column]) => keep.has(column)));
  });
}
