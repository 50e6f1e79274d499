import "server-only";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient as PostgresClient } from "./generated/postgres/client";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";
import { isDatabaseBusy } from "./database-busy";
import { databaseTarget, type Provider } from "./db-target";

// Both generated clients come from one source schema, so their model APIs are
// the same; the SQLite client's type stands for both.
export type Db = SqliteClient;

// An idle PostgreSQL connection is kept this long (pg's default is 10 s), so
// a burst after a quiet minute finds open connections instead of opening all anew.
export const PG_IDLE_TIMEOUT_MS = 60_000;

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
  /** PostgreSQL: the ORM's connection pool (the metrics read its counts); none on SQLite. */
  pool?: pg.Pool;
}

export interface DatabaseSettings {
  /** PostgreSQL: the pool's connections (DATABASE_POOL_SIZE). */
  poolSize: number;
  /** How long a query waits for a connection, or SQLite's write lock (DATABASE_TIMEOUT_MS). */
  timeoutMs: number;
  /** Told when a query failed because the database was busy: the runtime marks the request (lib/http/request-scope.ts). */
  onBusy?: () => void;
}

/**
 * Tells `onBusy` about every query, and every interactive transaction's
 * start, that failed because the database was busy; the error goes on as it was.
 */
function reportBusy(client: Db, onBusy: () => void): Db {
  const report = (error: unknown) => {
    if (isDatabaseBusy(error)) onBusy();
    throw error;
  };
  const extended = client.$extends({
    query: { $allOperations: ({ args, query }) => query(args).catch(report) },
  }) as unknown as Db;
  const transaction = extended.$transaction.bind(extended) as (...args: unknown[]) => Promise<unknown>;
  return new Proxy(extended, {
    get(target, property, receiver) {
      if (property === "$transaction") return (...args: unknown[]) => transaction(...args).catch(report);
      return Reflect.get(target, property, receiver);
    },
  });
}

/** A new ORM client for DATABASE_URL: made once per process, by the runtime (lib/runtime/create-runtime.ts). */
export function createDatabase(databaseUrl: string, settings: DatabaseSettings): Database {
  const target = databaseTarget(databaseUrl, process.cwd());
  const onBusy = settings.onBusy ?? (() => {});
  if (target.provider === "postgres") {
    // The pool is made here rather than by the adapter, so its counts can be read; the adapter still ends it.
    const pool = new pg.Pool({
      connectionString: target.url,
      max: settings.poolSize,
      // Both the wait for a free connection and the opening of a new one.
      connectionTimeoutMillis: settings.timeoutMs,
      idleTimeoutMillis: PG_IDLE_TIMEOUT_MS,
    });
    const adapter = new PrismaPg(pool, { disposeExternalPool: true });
    // A transaction waits for its connection as long as a query does (Prisma's own default is 2 s).
    const client = new PostgresClient({ adapter, transactionOptions: { maxWait: settings.timeoutMs } });
    return { client: reportBusy(versionKeyChanges(client as unknown as Db), onBusy), provider: "postgres", pool };
  }
  // busy timeout: concurrent writers wait for the lock instead of failing.
  const adapter = new PrismaBetterSqlite3({ url: target.url, timeout: settings.timeoutMs });
  const client = new SqliteClient({ adapter, transactionOptions: { maxWait: settings.timeoutMs } });
  // WAL lets readers carry on while one writer writes; the mode is stored in
  // the database file, so setting it on every start is cheap and idempotent.
  void client.$queryRawUnsafe("PRAGMA journal_mode = WAL").catch(() => {});
  return { client: reportBusy(versionKeyChanges(client), onBusy), provider: "sqlite" };
}
