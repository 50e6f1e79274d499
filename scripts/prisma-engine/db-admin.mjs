// Database chores the native engine does itself and the wasm engine does not.
const MIGRATIONS_TABLE = {
  sqlite: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" TEXT PRIMARY KEY NOT NULL,
    "checksum" TEXT NOT NULL,
    "finished_at" DATETIME,
    "migration_name" TEXT NOT NULL,
    "logs" TEXT,
    "rolled_back_at" DATETIME,
    "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
  )`,
  postgres: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`,
};

async function withAdapter(factory, work) {
  const connected = await factory.connect();
  if (!connected.ok) throw connected.error;
  const adapter = connected.value;
  try {
    return await work(adapter);
  } finally {
    await adapter.dispose();
  }
}

function unwrap(result) {
  if (result && typeof result === "object" && "ok" in result) {
    if (!result.ok) throw result.error;
    return result.value;
  }
  return result;
}

export function createMigrationsTable(factory, provider) {
  return withAdapter(factory, async (adapter) => unwrap(await adapter.executeScript(MIGRATIONS_TABLE[provider])));
}

export function dropEverything(factory) {
  return withAdapter(factory, async (adapter) => {
    const objects = unwrap(
      await adapter.queryRaw({
        sql: "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'",
        args: [],
        argTypes: [],
      }),
    );
    const statements = objects.rows.map(
      ([type, name]) => `DROP ${type === "view" ? "VIEW" : "TABLE"} IF EXISTS "${String(name).replaceAll('"', '""')}";`,
    );
    const script = ["PRAGMA foreign_keys = OFF;", ...statements, "PRAGMA foreign_keys = ON;"].join("\n");
    unwrap(await adapter.executeScript(script));
  });
}
