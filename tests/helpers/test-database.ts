// Creates a throw-away database for a test run, migrated with the committed
// migrations through the Prisma CLI (and so through the schema engine bridge),
// and drops it afterwards. SQLite by default; PostgreSQL when
// TEST_DATABASE_URL points at a server (its database name is ignored: every
// run makes its own, and never touches the one named).
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { assertLocalDatabaseUrl } from "./local-database";

const run = promisify(execFile);
export const projectRoot = path.resolve(import.meta.dirname, "..", "..");
const prismaBin = path.join(projectRoot, "node_modules", ".bin", "prisma");

export interface TestDatabase {
  provider: "sqlite" | "postgres";
  url: string;
  drop(): Promise<void>;
}

export async function prismaCli(args: string[], databaseUrl: string) {
  return run(prismaBin, args, { cwd: projectRoot, env: { ...process.env, DATABASE_URL: databaseUrl } });
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, "postgres") });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(serverUrl = process.env.TEST_DATABASE_URL): Promise<TestDatabase> {
  if (serverUrl) {
    assertLocalDatabaseUrl(serverUrl);
    const name = `keyport_test_${randomBytes(6).toString("hex")}`;
    await onServer(serverUrl, `CREATE DATABASE "${name}"`);
    const url = withDatabase(serverUrl, name);
    return {
      provider: "postgres",
      url,
      drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-test-"));
  return {
    provider: "sqlite",
    url: `file:${path.join(dir, "test.db")}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

export async function createMigratedTestDatabase(serverUrl?: string): Promise<TestDatabase> {
  const database = await createTestDatabase(serverUrl);
  await prismaCli(["migrate", "deploy"], database.url);
  return database;
}
