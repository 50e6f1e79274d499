// Driver adapters for the schema engine bridge, with the few corrections the
// WebAssembly engine needs that the stock adapters do not make.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

export function providerOf(url, datamodels) {
  if (url) return /^postgres(ql)?:\/\//.test(url) ? "postgres" : "sqlite";
  const text = datamodels.map(([, content]) => content).join("\n");
  return /provider\s*=\s*"postgresql"/.test(text) ? "postgres" : "sqlite";
}

export function sqlitePath(url, baseDir) {
  const file = url.replace(/^file:/, "");
  return file === ":memory:" || path.isAbsolute(file) ? file : path.resolve(baseDir, file);
}

// Separate connection fields, not a connection string: pg lets a
// connectionString win over `database`, which silently pointed the adapter's
// shadow database at the main one.
export function pgFields(url) {
  const u = new URL(url);
  return {
    fields: {
      host: decodeURIComponent(u.hostname) || "localhost",
      port: Number(u.port || 5432),
      user: decodeURIComponent(u.username) || undefined,
      password: decodeURIComponent(u.password) || undefined,
      database: decodeURIComponent(u.pathname.slice(1)) || "postgres",
    },
    schema: u.searchParams.get("schema") ?? undefined,
  };
}

// The engine reads catalog columns of type "char" (pg_class.relkind and the
// like), which the pg adapter does not map; they are single characters, so
// report them as text.
class CatalogFriendlyPool extends pg.Pool {
  async query(config, values) {
    const result = await super.query(config, values);
    for (const field of result?.fields ?? []) {
      if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
    }
    return result;
  }
}

function postgresFactory(url, shadowDatabaseUrl) {
  const { fields, schema } = pgFields(url);
  const options = schema ? { schema } : undefined;
  const factory = new PrismaPg(new CatalogFriendlyPool(fields), { ...options, disposeExternalPool: true });
  factory.connectToShadowDb = async () => {
    if (shadowDatabaseUrl) {
      const shadow = pgFields(shadowDatabaseUrl);
      return new PrismaPg(new CatalogFriendlyPool(shadow.fields), { disposeExternalPool: true }).connect();
    }
    // A throw-away database, created and dropped in that order: the shadow's
    // own pool is closed before the DROP, and FORCE ends any straggler.
    const admin = new pg.Client(fields);
    await admin.connect();
    const name = `prisma_migrate_shadow_db_${randomUUID().replaceAll("-", "")}`;
    await admin.query(`CREATE DATABASE "${name}"`);
    const shadowPool = new CatalogFriendlyPool({ ...fields, database: name });
    // pg's Pool.end() resolves once it has let go of its clients, not once
    // their server processes have exited, so the DROP's FORCE can still
    // terminate one. The "terminating connection" that follows reaches the
    // pool as an idle-client error, and with the adapter's listener already
    // gone it was thrown: the bridge died mid-diff and the CLI reported "no
    // difference". It is expected here.
    shadowPool.on("error", () => {});
    const adapter = await new PrismaPg(shadowPool).connect();
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await dispose().catch(() => {});
      await shadowPool.end().catch(() => {});
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    };
    return adapter;
  };
  return factory;
}

// better-sqlite3 refuses several statements in one prepared statement, and the
// engine sends whole migration scripts through executeRaw: run those as a script.
function withScriptFallback(adapter) {
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.executeRaw = async (query) => {
    try {
      return await executeRaw(query);
    } catch (error) {
      const message = String(error?.cause?.message ?? error?.message ?? "");
      if (query.args.length === 0 && message.includes("more than one statement")) {
        await adapter.executeScript(query.sql);
        return 0;
      }
      throw error;
    }
  };
  return adapter;
}

function sqliteFactory(url, shadowDatabaseUrl, baseDir) {
  const factory = new PrismaBetterSqlite3(
    { url: sqlitePath(url, baseDir) },
    shadowDatabaseUrl ? { shadowDatabaseUrl: sqlitePath(shadowDatabaseUrl, baseDir) } : undefined,
  );
  const connect = factory.connect.bind(factory);
  const connectToShadowDb = factory.connectToShadowDb.bind(factory);
  factory.connect = async () => withScriptFallback(await connect());
  factory.connectToShadowDb = async () => withScriptFallback(await connectToShadowDb());
  return factory;
}

export function createAdapterFactory({ provider, url, shadowDatabaseUrl, baseDir }) {
  if (provider === "postgres") {
    if (!url) throw new Error("A PostgreSQL datasource needs a url in prisma.config.ts.");
    return postgresFactory(url, shadowDatabaseUrl);
  }
  return sqliteFactory(url ?? "file::memory:", shadowDatabaseUrl, baseDir);
}
