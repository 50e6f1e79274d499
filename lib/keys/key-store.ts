import "server-only";
import Database from "better-sqlite3";
import type pg from "pg";
import type { Db } from "../db";
import type { MaybePromise } from "../maybe-promise";
import type { KeyEnvironment } from "./format";
import { fromStoredRestrictions, type KeyRestrictions } from "./restrictions";
import { walChangeMark } from "./wal-change-mark";
import { withFields } from "../with-fields";

// Where the gate reads keys. Two reads only, both one indexed row, written as
// raw SQL: the ORM's query building costs more than the lookup itself on this
// path (docs/architecture.md: "The gate's hot path").

/** What the gate needs to know of a key: who owns it, whether it works, what it may do. */
export interface KnownKey {
  id: string;
  publicId: string;
  /** The team that owns the key, and the member who made it. */
  teamId: string;
  userId: string;
  environment: KeyEnvironment;
  revokedAt: Date | null;
  expiresAt: Date | null;
  successorId: string | null;
  lastUsedAt: Date | null;
  restrictions: KeyRestrictions;
  /** The operator set the rate limit: it holds even above the environment's default. */
  rateLimitByOperator: boolean;
  /** ApiKey.version when read: raised by every change to the key (lib/db.ts). */
  version: number;
  /** A decoy key: never works, and its use raises an alert (lib/keys/decoy.ts). */
  decoy: boolean;
}

export interface KeyStore {
  /** The key with this digest, or null: at once where the driver is synchronous (SQLite). */
  byDigest(digest: string): MaybePromise<KnownKey | null>;
  /** The current version of the key with this row id, or null if the row is gone. */
  versionOf(id: string): MaybePromise<number | null>;
  /**
   * A value that changes with every commit to the database, read without a
   * query (SQLite's WAL index header, lib/keys/wal-change-mark.ts): the same
   * mark before two reads means nothing committed between them. Null, or
   * absent, when the store cannot tell: the key cache then reads the version.
   */
  changeMark?(): string | null;
}

interface KeyRow {
  id: string;
  publicId: string;
  teamId: string;
  userId: string;
  environment: string;
  revokedAt: Date | string | number | null;
  expiresAt: Date | string | number | null;
  successorId: string | null;
  lastUsedAt: Date | string | number | null;
  scopes: string;
  allowedIps: string | null;
  rateLimit: number | bigint | null;
  rateLimitByOperator: boolean | number | bigint;
  version: number | bigint;
  decoy: boolean | number | bigint;
}

/** The columns every store reads for a key, in KeyRow's order: the one statement of what the gate needs. */
const KEY_COLUMNS: readonly (keyof KeyRow)[] = [
  "id",
  "publicId",
  "teamId",
  "userId",
  "environment",
  "revokedAt",
  "expiresAt",
  "successorId",
  "lastUsedAt",
  "scopes",
  "allowedIps",
  "rateLimit",
  "rateLimitByOperator",
  "version",
  "decoy",
];
const DATE_COLUMNS: ReadonlySet<keyof KeyRow> = new Set(["revokedAt", "expiresAt", "lastUsedAt"]);

/** SELECT of a key by digest, each column as `column` names it (PostgreSQL reads dates as UTC through it). */
function selectByDigest(placeholder: string, column = (name: keyof KeyRow) => `"${name}"`): string {
  return `SELECT ${KEY_COLUMNS.map(column).join(", ")} FROM "ApiKey" WHERE "digest" = ${placeholder}`;
}

/** SELECT of a key's version by id. */
const selectVersion = (placeholder: string) => `SELECT "version" FROM "ApiKey" WHERE "id" = ${placeholder}`;

const toDate = (value: Date | string | number | null) =>
  value === null ? null : value instanceof Date ? value : new Date(value);

function toKnownKey(row: KeyRow): KnownKey {
  return {
    id: row.id,
    publicId: row.publicId,
    teamId: row.teamId,
    userId: row.userId,
    environment: row.environment as KeyEnvironment,
    revokedAt: toDate(row.revokedAt),
    expiresAt: toDate(row.expiresAt),
    successorId: row.successorId,
    lastUsedAt: toDate(row.lastUsedAt),
    restrictions: fromStoredRestrictions({
      scopes: row.scopes,
      allowedIps: row.allowedIps,
      rateLimit: row.rateLimit === null ? null : Number(row.rateLimit),
    }),
    rateLimitByOperator: Boolean(row.rateLimitByOperator),
    version: Number(row.version),
    decoy: Boolean(row.decoy),
  };
}

/** `text` as a template literal's strings with one value after it: `${text}${value}`. */
function endingInValue(text: string): TemplateStringsArray {
  return Object.assign([text, ""], { raw: [text, ""] });
}

/** The database's keys, through the app's Prisma client (SQLite or PostgreSQL: the SQL is the same). */
export function databaseKeyStore(db: Db): KeyStore {
  return {
    // The statement is fixed text ending where its one value goes: a tagged template of one value, which the
    // client binds with each database's own placeholder.
    async byDigest(digest) {
      const rows = await db.$queryRaw<KeyRow[]>(endingInValue(selectByDigest("")), digest);
      return rows[0] ? toKnownKey(rows[0]) : null;
    },
    async versionOf(id) {
      const rows = await db.$queryRaw<{ version: number | bigint }[]>(endingInValue(selectVersion("")), id);
      return rows[0] ? Number(rows[0].version) : null;
    },
  };
}

/** Puts the database in WAL mode; false if it could not (another connection busy): the mark is then not used. */
function walMode(connection: Database.Database): boolean {
  try {
    return connection.pragma("journal_mode = WAL", { simple: true }) === "wal";
  } catch {
    return false;
  }
}

/**
 * SQLite's keys through a connection of the gate's own that never writes, with both
 * statements prepared once: the database is a file in this process, so a
 * lookup takes microseconds, and a write committed by any connection (the
 * dashboard's, the CLI's) is seen by the next statement here (WAL mode). Its
 * change mark is the WAL index header.
 */
export function sqliteKeyStore(file: string): KeyStore & { close(): void } {
  const connection = new Database(file, { fileMustExist: true, timeout: 5_000 });
  // WAL mode, as the app sets it on start (lib/db.ts): the gate may open the
  // file first. This connection then holds the -shm file the change mark
  // reads, so SQLite can neither delete it nor leave WAL mode while the gate
  // runs. It is opened for writing only for that: from here on it refuses
  // every write.
  const wal = walMode(connection);
  connection.pragma("query_only = ON");
  const byDigest = connection.prepare<[string], KeyRow>(selectByDigest("?"));
  const versionOf = connection.prepare<[string], { version: number }>(selectVersion("?"));
  const mark = wal ? walChangeMark(file) : null;
  return {
    // better-sqlite3 is synchronous: the answers are values, not promises (lib/maybe-promise.ts).
    byDigest: (digest) => {
      const row = byDigest.get(digest);
      return row ? toKnownKey(row) : null;
    },
    versionOf: (id) => versionOf.get(id)?.version ?? null,
    changeMark: () => mark?.read() ?? null,
    close: () => {
      connection.close();
      mark?.close();
    },
  };
}

/**
 * PostgreSQL's keys through the gate's own pool (lib/gate-pool.ts), both
 * statements prepared once per connection. Dates are read as UTC (Prisma
 * stores them as timestamps without a zone).
 */
export function postgresKeyStore(pool: Pick<pg.Pool, "query">): KeyStore {
  const utc = (column: keyof KeyRow) =>
    DATE_COLUMNS.has(column) ? `("${column}" AT TIME ZONE 'UTC') AS "${column}"` : `"${column}"`;
  const byDigest = { name: "keyport_key_by_digest", text: selectByDigest("$1", utc) };
  const versionOf = { name: "keyport_key_version", text: selectVersion("$1") };
  return {
    async byDigest(digest) {
      const { rows } = await pool.query<KeyRow>(withFields(byDigest, { values: [digest] }));
      return rows[0] ? toKnownKey(rows[0]) : null;
    },
    async versionOf(id) {
      const { rows } = await pool.query<{ version: number }>(withFields(versionOf, { values: [id] }));
      return rows[0] ? rows[0].version : null;
    },
  };
}
