#!/usr/bin/env node
// Creates the next migration for both databases from the one source schema:
//   npm run db:migration -- --name add_api_keys
// Each provider's SQL is what Prisma's diff says lies between that provider's
// migration history and its schema, written under the same folder name, so
// the two histories stay step for step alike. The PostgreSQL diff needs a
// server for its shadow database (MIGRATION_DATABASE_URL, default the local one).
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const nameIndex = process.argv.indexOf("--name");
const name = nameIndex > 0 ? process.argv[nameIndex + 1] : undefined;
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:migration -- --name <snake_case_name>");
  process.exit(2);
}

const postgresUrl = process.env.MIGRATION_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const targets = [
  {
    label: "SQLite",
    env: { DATABASE_URL: "file:./data/migration-scratch.db" },
    dir: "prisma/migrations",
    schema: "prisma/schema.prisma",
  },
  {
    label: "PostgreSQL",
    env: { DATABASE_URL: postgresUrl },
    dir: "prisma/postgres/migrations",
    schema: "prisma/postgres/schema.prisma",
  },
];

execFileSync("node", [path.join(root, "scripts", "prisma-sync.mjs")], { stdio: "inherit" });

// The SQLite scratch database lives in data/, which a fresh clone lacks.
mkdirSync(path.join(root, "data"), { recursive: true });

const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const folder = `${stamp}_${name}`;
const scripts = targets.map((target) => {
  const sql = execFileSync(
    path.join(root, "node_modules", ".bin", "prisma"),
    ["migrate", "diff", "--from-migrations", target.dir, "--to-schema", target.schema, "--script"],
    { cwd: root, env: { ...process.env, ...target.env }, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  return { ...target, sql: sql.replace(/^Loaded Prisma config.*\n+/m, "").trim() };
});
rmSync(path.join(root, "data", "migration-scratch.db"), { force: true });

const empty = scripts.map((s) => s.sql === "" || s.sql.startsWith("-- This is an empty migration"));
if (empty.every(Boolean)) {
  console.log("The schema matches the migrations: nothing to create.");
  process.exit(0);
}
// One provider with SQL and the other without means a diff failed: write neither.
if (empty.some(Boolean)) {
  console.error(`No migration written: ${scripts.filter((_, i) => empty[i]).map((s) => s.label)} produced no SQL.`);
  process.exit(1);
}
for (const { label, dir, sql } of scripts) {
  mkdirSync(path.join(root, dir, folder), { recursive: true });
  writeFileSync(path.join(root, dir, folder, "migration.sql"), sql + "\n");
  console.log(`${label}: ${dir}/${folder}/migration.sql`);
}
