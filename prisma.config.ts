// Prisma CLI configuration. One config serves both databases: DATABASE_URL
// picks the schema and the migrations folder (SQLite by default, PostgreSQL
// for postgres:// URLs), and the schema engine falls back to our wasm bridge
// when Prisma's native engine could not be downloaded.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "prisma/config";
import { databaseTarget } from "./lib/db-target";

const root = import.meta.dirname;

function nativeSchemaEngineInstalled(): boolean {
  const dir = path.join(root, "node_modules", "@prisma", "engines");
  return existsSync(dir) && readdirSync(dir).some((file) => file.startsWith("schema-engine-"));
}

if (!process.env.PRISMA_SCHEMA_ENGINE_BINARY && !nativeSchemaEngineInstalled()) {
  process.env.PRISMA_SCHEMA_ENGINE_BINARY = path.join(root, "scripts", "prisma-engine", "bridge.mjs");
}

const target = databaseTarget(process.env.DATABASE_URL, root);

export default defineConfig({
  schema: target.schemaPath,
  // No seed: a fresh database needs nothing in it (accounts are made by signing up or with the operator CLI).
  // KEYPORT_MIGRATIONS_PATH: scripts/db-deploy.mts's copy of the folder, holding back a contract migration.
  migrations: { path: process.env.KEYPORT_MIGRATIONS_PATH || target.migrationsPath },
  datasource: {
    url: target.url,
    ...(process.env.SHADOW_DATABASE_URL ? { shadowDatabaseUrl: process.env.SHADOW_DATABASE_URL } : {}),
  },
});
