// Creates a throw-away database for a test run, migrated with the committed
// migrations through the Prisma CLI (and so through the schema engine bridge),
// and drops it afterwards. SQLite by default; PostgreSQL when
// TEST_DATABASE_URL points at a server (its database name is ignored: every
// run makes its own, and never touches the one named).
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync } from "node:fs";
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

/** The name a worker's copy of a template database gets: beside it, so dropping the template's folder or prefix drops it too. */
function workerUrl(templateUrl: string, worker: string): string {
  if (templateUrl.startsWith("file:")) {
    const file = templateUrl.slice("file:".length);
    return `file:${path.join(path.dirname(file), `worker-${worker}.db`)}`;
  }
  const url = new URL(templateUrl);
  url.pathname = `${url.pathname}_w${worker}`;
  return url.toString();
}

async function databaseExists(serverUrl: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, "postgres") });
  await client.connect();
  try {
    return (await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

/**
 * A test worker's own database, copied from the migrated template the global
 * setup made (a file copy on SQLite, CREATE DATABASE ... TEMPLATE on
 * PostgreSQL), so files in parallel workers never share rows or locks. Made on
 * the worker's first file and reused by its later ones, which run one at a
 * time, like the files of the single shared database did before.
 */
export async function workerDatabase(templateUrl: string, worker: string): Promise<string> {
  if (!/^[0-9]{1,3}$/.test(worker)) throw new Error(`Unexpected test worker id "${worker}".`);
  const url = workerUrl(templateUrl, worker);
  if (url.startsWith("file:")) {
    const file = url.slice("file:".length);
    if (!existsSync(file)) {
      // Copied under another name first, so a reader never sees half a file.
      copyFileSync(templateUrl.slice("file:".length), `${file}.partial`);
      renameSync(`${file}.partial`, file);
    }
    return url;
  }
  await cloneDatabase(templateUrl, url);
  return url;
}

/** Makes the PostgreSQL database `url` names as a copy of the template's, unless it exists. */
async function cloneDatabase(templateUrl: string, url: string): Promise<void> {
  assertLocalDatabaseUrl(url);
  const template = new URL(templateUrl).pathname.slice(1);
  const name = new URL(url).pathname.slice(1);
  // Two workers cloning the same template at once can meet PostgreSQL's
  // "source database is being accessed by other users": wait and try again.
  for (let attempt = 1; !(await databaseExists(url, name)); attempt++) {
    try {
      await onServer(url, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
    } catch (error) {
      if (attempt >= 20 || !/being accessed by other users|already exists/.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/**
 * A migrated database of one test file's own, nothing in it yet, copied from the run's template as a worker's is
 * (a second or two faster than migrating one); `drop` removes it.
 */
export async function copyOfTemplate(): Promise<TestDatabase> {
  const templateUrl = process.env.KEYPORT_TEST_TEMPLATE_URL;
  if (!templateUrl) throw new Error("copyOfTemplate runs under the integration global setup only.");
  if (templateUrl.startsWith("file:")) {
    const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-test-"));
    const file = path.join(dir, "test.db");
    copyFileSync(templateUrl.slice("file:".length), file);
    return { provider: "sqlite", url: `file:${file}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const url = new URL(templateUrl);
  const name = `keyport_test_${randomBytes(6).toString("hex")}`;
  url.pathname = `/${name}`;
  await cloneDatabase(templateUrl, url.toString());
  return {
    provider: "postgres",
    url: url.toString(),
    drop: () => onServer(url.toString(), `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** Drops every worker copy of a PostgreSQL template (SQLite's copies go with the template's folder). */
export async function dropWorkerDatabases(templateUrl: string): Promise<void> {
  if (templateUrl.startsWith("file:")) return;
  const client = new pg.Client({ connectionString: withDatabase(templateUrl, "postgres") });
  await client.connect();
  try {
    const template = new URL(templateUrl).pathname.slice(1);
    const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [
      `${template}\\_w%`,
    ]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
