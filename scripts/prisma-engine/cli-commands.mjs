// The engine's one-shot commands (`<engine> --datasource {...} cli <command>`),
// which the Prisma CLI runs before migrating to make sure the database exists.
// It reads errors from stderr as JSON log lines after the first.
import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { pgFields, providerOf, sqlitePath } from "./adapters.mjs";

class EngineCliError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const sqlite = {
  async canConnect(file) {
    if (file !== ":memory:" && !existsSync(file)) {
      throw new EngineCliError("P1003", `Database ${path.basename(file)} does not exist at ${file}`);
    }
  },
  async create(file) {
    mkdirSync(path.dirname(file), { recursive: true });
    new Database(file).close();
  },
  async drop(file) {
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
  },
};

async function onAdminDatabase(fields, sql) {
  const client = new pg.Client({ ...fields, database: "postgres" });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const postgres = {
  async canConnect(fields) {
    const client = new pg.Client(fields);
    try {
      await client.connect();
    } catch (error) {
      if (error.code === "3D000") {
        throw new EngineCliError("P1003", `Database \`${fields.database}\` does not exist on the database server`);
      }
      throw new EngineCliError(
        "P1001",
        `Can't reach database server at \`${fields.host}:${fields.port}\`: ${error.message}`,
      );
    } finally {
      await client.end().catch(() => {});
    }
  },
  create: (fields) => onAdminDatabase(fields, `CREATE DATABASE "${fields.database.replaceAll('"', '""')}"`),
  drop: (fields) =>
    onAdminDatabase(fields, `DROP DATABASE IF EXISTS "${fields.database.replaceAll('"', '""')}" WITH (FORCE)`),
};

export async function runCliCommand(command, datasource, log) {
  const url = datasource.url;
  const isPostgres = providerOf(url, []) === "postgres";
  const ops = isPostgres ? postgres : sqlite;
  const target = isPostgres ? pgFields(url).fields : sqlitePath(url, process.cwd());
  const operations = {
    "can-connect-to-database": () => ops.canConnect(target),
    "create-database": () => ops.create(target),
    "drop-database": () => ops.drop(target),
  };
  const operation = operations[command];
  if (!operation) {
    log("ERROR", `Unknown cli command: ${command}`);
    return 1;
  }
  try {
    await operation();
    return 0;
  } catch (error) {
    process.stderr.write(
      JSON.stringify({
        timestamp: new Date().toISOString(),
        level: "ERROR",
        fields: { message: error.message, error_code: error.code ?? "P1000" },
        target: "schema_engine::logger",
      }) + "\n",
    );
    return 1;
  }
}
