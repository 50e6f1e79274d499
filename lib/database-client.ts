import "server-only";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as PostgresClient } from "./generated/postgres/client";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";
import { databaseTarget, type Provider } from "./db-target";

// Both generated clients come from one source schema, so their model APIs are
// the same; the SQLite client's type stands for both.
export type Db = SqliteClient;

const SQLITE_BUSY_TIMEOUT_MS = 5_000;
const PG_CONNECT_TIMEOUT_MS = 3_000;

/** Recording a key's use is the one change that leaves its version alone (it changes nothing the gate checks). */
const USE_FIELDS = new Set(["lastUsedAt", "lastUsedIp"]);

function withVersion<T extends { data?: unknown }>(args: T): T {
  const data = args.data as Record<string, unknown> | undefined;
  if (!data || Object.keys(data).every((field) => USE_FIELDS.has(field))) return args;
  return { ...args, data: { ...data, version: { increment: 1 } } };
}

/**
 * Every update of an ApiKey raises its version, in the same statement, so no
 * code path can change a key without the gate's caches noticing
 * (lib/keys/key-cache.ts). Applies inside transactions too.
 */
function versionKeyChanges(client: SqliteClient) {
  return client.$extends({
    query: {
      apiKey: {
        update: ({ args, query }) => query(withVersion(args)),
        updateMany: ({ args, query }) => query(withVersion(args)),
        updateManyAndReturn: ({ args, query }) => query(withVersion(args)),
        upsert: ({ args, query }) => query({ ...args, update: withVersion({ data: args.update }).data }),
      },
    },
  }) as unknown as Db;
}

export interface Database {
  client: Db;
  provider: Provider;
}

/** A new ORM client for DATABASE_URL: made once per process, by the runtime (lib/runtime/create-runtime.ts). */
export function createDatabase(databaseUrl: string): Database {
  const target = databaseTarget(databaseUrl, process.cwd());
  if (target.provider === "postgres") {
    const adapter = new PrismaPg({ connectionString: target.url, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS });
    return { client: versionKeyChanges(new PostgresClient({ adapter }) as unknown as Db), provider: "postgres" };
  }
  // busy timeout: concurrent writers wait for the lock instead of failing.
  const adapter = new PrismaBetterSqlite3({ url: target.url, timeout: SQLITE_BUSY_TIMEOUT_MS });
  const client = new SqliteClient({ adapter });
  // WAL lets readers carry on while one writer writes; the mode is stored in
  // the database file, so setting it on every start is cheap and idempotent.
  void client.$queryRawUnsafe("PRAGMA journal_mode = WAL").catch(() => {});
  return { client: versionKeyChanges(client), provider: "sqlite" };
}
