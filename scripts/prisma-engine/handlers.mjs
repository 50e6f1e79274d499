// One handler per JSON-RPC method the Prisma CLI calls. Most forward to the
// wasm engine unchanged; the rest cover what the wasm engine leaves to its host.
import { createMigrationsTable, dropEverything } from "./db-admin.mjs";

const FORWARDED = [
  "applyMigrations",
  "createMigration",
  "dbExecute",
  "devDiagnostic",
  "diagnoseMigrationHistory",
  "ensureConnectionValidity",
  "evaluateDataLoss",
  "introspect",
  "introspectSql",
  "markMigrationApplied",
  "markMigrationRolledBack",
  "schemaPush",
];

const MISSING_MIGRATIONS_TABLE = /_prisma_migrations/;

export function createHandlers({ engine, factory, provider, print }) {
  // Method calls stay on `engine`: a detached method loses its wasm pointer.
  const forward = (method) => async (params) => {
    try {
      return await engine[method](params);
    } catch (error) {
      if (!MISSING_MIGRATIONS_TABLE.test(String(error?.message))) throw error;
      // The wasm engine reports a missing migrations table (P1014) where the
      // native engine creates it (an empty table changes nothing else):
      // create it and try once more.
      await createMigrationsTable(factory, provider);
      return engine[method](params);
    }
  };
  const handlers = Object.fromEntries(FORWARDED.map((method) => [method, forward(method)]));

  handlers.getDatabaseVersion = (params) => engine.version(params);
  handlers.version = handlers.getDatabaseVersion;

  handlers.diff = async (params) => {
    const { stdout, exitCode } = await engine.diff(params);
    if (stdout) await print(stdout);
    return { exitCode };
  };

  handlers.reset = async (params) => {
    // The native engine deletes a SQLite file; through an adapter we can only
    // empty it, which leaves the same state.
    if (provider === "sqlite") return dropEverything(factory);
    return engine.reset(params);
  };

  handlers.createDatabase = async () => ({ databaseName: "" });
  handlers.debugPanic = () => engine.debugPanic();
  return handlers;
}
