import "server-only";
import pg from "pg";
import { LISTED_FOR_MS } from "../../instances/fence";
import { CheckFailed } from "../command-support";
import { APPLIED_MIGRATIONS_SQL, NOT_DATA, STORED_FILES_SQL, type BackupDatabase } from "./backup-database";
import { DATABASE_FILE } from "./manifest.schema";
import { PG_DUMP, PG_RESTORE, runTool } from "./run-tool";

// PostgreSQL's side of a backup: pg_dump in its custom format, inside a
// snapshot this process exports (so the manifest's migrations and files are
// the dump's own), and pg_restore in one transaction. Live instances are
// those the revocation fence would wait for (lib/instances/fence.ts).

/** Prisma's own settings in a DATABASE_URL, which libpq refuses ("invalid URI query parameter"). */
const PRISMA_ONLY = [
  "schema",
  "connection_limit",
  "pool_timeout",
  "pgbouncer",
  "statement_cache_size",
  "socket_timeout",
  "sslaccept",
  "sslidentity",
];

/**
 * DATABASE_URL as pg_dump and pg_restore take it: the password moved to their environment, Prisma's settings out.
 * libpq reads a password from the URL's user part and from a ?password= parameter (which wins); neither may stay.
 * ?sslpassword= is Prisma's password of its sslidentity file (PKCS#12), which libpq cannot use; libpq would take it
 * for an sslkey's, and has no environment variable for it: it is dropped with sslidentity, never passed on.
 */
export function toolConnection(url: string): { dbname: string; env: Record<string, string> } {
  const parsed = new URL(url);
  const password = parsed.searchParams.get("password") ?? decodeURIComponent(parsed.password);
  parsed.password = "";
  for (const name of [...PRISMA_ONLY, "password", "sslpassword"]) parsed.searchParams.delete(name);
  return { dbname: parsed.toString(), env: password ? { PGPASSWORD: password } : {} };
}

const isMissingTable = (error: unknown) => (error as { code?: string })?.code === "42P01";

async function connected<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    // pg's reasons name the host, the user or the database, never the password.
    throw new CheckFailed(`The PostgreSQL database cannot be reached: ${(error as Error).message}`);
  }
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

async function appliedMigrations(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ migration_name: string }>(APPLIED_MIGRATIONS_SQL);
  return rows.map((row) => row.migration_name);
}

export function postgresBackupDatabase(url: string): BackupDatabase {
  const tool = toolConnection(url);
  return {
    provider: "postgres",
    fileName: DATABASE_FILE.postgres,
    snapshot: (to) =>
      connected(url, async (client) => {
        // pg_dump reads the snapshot this transaction exports, which stays open until the dump is done.
        await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
        const takenAt = new Date();
        const { rows } = await client.query<{ id: string }>("SELECT pg_export_snapshot() AS id");
        let migrations: string[];
        let files: { id: string; storagePath: string }[];
        try {
          migrations = await appliedMigrations(client);
          files = (await client.query<{ id: string; storagePath: string }>(STORED_FILES_SQL)).rows;
        } catch (error) {
          if (!isMissingTable(error)) throw error;
          throw new CheckFailed("The PostgreSQL database holds no Keyport schema: there is nothing to back up.");
        }
        // The instances' heartbeats are not data: a restored row would pass for a live instance.
        const args = ["--format=custom", `--snapshot=${rows[0]!.id}`, '--exclude-table-data="GateInstance"'];
        await runTool(PG_DUMP, [...args, `--file=${to}`, `--dbname=${tool.dbname}`], tool.env);
        await client.query("COMMIT");
        return { takenAt, migrations, files };
      }),
    tablesWithRows: () =>
      connected(url, async (client) => {
        const { rows } = await client.query<{ schema: string; name: string }>(
          `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
            WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
        );
        const holding: string[] = [];
        for (const { schema, name } of rows) {
          if (NOT_DATA.has(name)) continue;
          const table = `${client.escapeIdentifier(schema)}.${client.escapeIdentifier(name)}`;
          const { rows: found } = await client.query(`SELECT 1 FROM ${table} LIMIT 1`);
          if (found.length > 0) holding.push(name);
        }
        return holding;
      }),
    inUse: () =>
      connected(url, async (client) => {
        let live: number;
        try {
          const { rows } = await client.query<{ live: number }>(
            `SELECT count(*)::int AS live FROM "GateInstance"
              WHERE "heartbeatAt" > (now() AT TIME ZONE 'UTC') - make_interval(secs => $1)`,
            [LISTED_FOR_MS / 1000],
          );
          live = rows[0]!.live;
        } catch (error) {
          if (isMissingTable(error)) return null;
          throw error;
        }
        if (live === 0) return null;
        const which = live === 1 ? "1 instance serves" : `${live} instances serve`;
        return (
          `${which} this database (a heartbeat in the last ${LISTED_FOR_MS / 1000} s, table "GateInstance"): stop every ` +
          `instance, then restore. One that stopped without leaving the table counts for ${LISTED_FOR_MS / 1000} s.`
        );
      }),
    async restore(from, manifest) {
      // --clean drops only what the backup holds: tables a later migration added would stay, and trip db:deploy.
      const applied = await connected(url, (client) =>
        appliedMigrations(client).catch((error) => {
          if (isMissingTable(error)) return [];
          throw error;
        }),
      );
      const later = applied.filter((name) => !manifest.migrations.includes(name));
      if (later.length > 0) {
        throw new CheckFailed(
          `The database has ${later.length} migration(s) the backup was taken before (the last: ${later.at(-1)}): ` +
            "restore into an empty database (createdb), then run npm run db:deploy.",
        );
      }
      const args = [
        "--clean",
        "--if-exists",
        "--no-owner",
        "--no-privileges",
        "--exit-on-error",
        "--single-transaction",
      ];
      await runTool(PG_RESTORE, [...args, `--dbname=${tool.dbname}`, from], tool.env);
    },
  };
}
