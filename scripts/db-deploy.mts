// npm run db:deploy [-- --no-old-instances]: the release step, run before a
// release's instances start (docs/operations.md). In order:
// 1. The backfills a migration needs that SQL cannot do on SQLite (it has no
//    SHA-256): `admin sessions:hash-tokens`, which finds nothing to do unless
//    a session has only its token in clear.
// 2. `prisma migrate deploy`, holding back a contract migration (one that
//    removes what the previous release still reads) in the run that applies
//    its expand migration: the previous release's instances are running then,
//    during a rolling deploy. The next run applies it. Every other migration is
//    applied now, those named after it too (this release's instances need
//    them from the start; Prisma applies a pending migration whatever its
//    place in the history), so none of them may touch what a contract
//    removes. --no-old-instances says none is running (development, or a
//    deploy that stops everything first): the contract migration is then
//    applied in this run, after the backfills.
//    Then `admin accounts:clear-tokens`: GitHub's tokens an instance of the
//    previous release linked since the last run are emptied.
// 3. The backfills again, `admin audit:backfill`. Never `admin audit:key`,
//    the switch to a keyed activity chain: the operator runs it once, after
//    the upgrade's deploy (docs/operations.md). An unsigned chain is either
//    one written before the switch, rows an instance of the previous release
//    added, or a chain rewritten without the key with its seal cleared, and
//    nothing in the database tells them apart (not even which migrations it
//    says it has: whoever can rewrite the chain can rewrite that table too).
//    Signing it by routine would launder the last; a person decides.
// 4. `admin audit:start-team-chains`: each team chain that is empty and
//    unsigned starts, a personal team's with a row committing to its account
//    chain's head (lib/audit-chain-start.ts says what it can and cannot tell).
// Exit codes: 0 done; 3 one of the activity log's steps (3 or 4) refused or
// failed (they name the accounts); anything else, a step failed.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { CONTRACT_MIGRATIONS } from "../lib/db-contracts";
import { databaseTarget, type DatabaseTarget } from "../lib/db-target";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
// The same env files as the operator CLI, so the migrations and the backfills reach the same database.
for (const file of [".env.local", ".env.development.local", ".env"]) {
  const full = path.join(root, file);
  if (existsSync(full)) process.loadEnvFile(full);
}
const target = databaseTarget(process.env.DATABASE_URL, root);
const noOldInstances = process.argv.includes("--no-old-instances");

/** The migrations this database has applied, or null for one with none (nothing can be running on it). */
async function appliedMigrations(database: DatabaseTarget): Promise<Set<string> | null> {
  const query =
    'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL';
  let names: string[];
  if (database.provider === "sqlite") {
    const file = database.url.slice("file:".length);
    if (!existsSync(file)) return null;
    const sqlite = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const table = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'");
      if (!table.get()) return null;
      names = sqlite
        .prepare<[], { migration_name: string }>(query)
        .all()
        .map((row) => row.migration_name);
    } finally {
      sqlite.close();
    }
  } else {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const table = await client.query("SELECT to_regclass('\"_prisma_migrations\"') AS name");
      if (!table.rows[0]?.name) return null;
      names = (await client.query<{ migration_name: string }>(query)).rows.map((row) => row.migration_name);
    } finally {
      await client.end();
    }
  }
  return names.length > 0 ? new Set(names) : null;
}

/** The contract migrations this run must not apply (none on a new database: nothing can be running on it). */
function heldBack(applied: Set<string> | null, local: string[]): string[] {
  if (applied === null) return [];
  return CONTRACT_MIGRATIONS.filter(({ expand, contract }) => !applied.has(expand) && local.includes(contract))
    .map(({ contract }) => contract)
    .sort();
}

function migrateDeploy(migrationsPath?: string) {
  execFileSync(bin("prisma"), ["migrate", "deploy"], {
    cwd: root,
    stdio: "inherit",
    env: migrationsPath ? { ...process.env, KEYPORT_MIGRATIONS_PATH: migrationsPath } : process.env,
  });
}

/**
 * `prisma migrate deploy` with the held contract migrations left out (a copy
 * of the folder without them). Migrations named after them are applied now;
 * the next run applies the contracts after them, out of the folder's order.
 */
function migrateDeployWithout(held: string[], local: string[]) {
  const copy = mkdtempSync(path.join(os.tmpdir(), "keyport-migrations-"));
  try {
    cpSync(path.join(target.migrationsPath, "migration_lock.toml"), path.join(copy, "migration_lock.toml"));
    for (const name of local.filter((name) => !held.includes(name))) {
      cpSync(path.join(target.migrationsPath, name), path.join(copy, name), { recursive: true });
    }
    migrateDeploy(copy);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

function admin(...commands: string[]) {
  const args = commands.length === 1 ? commands : ["--steps", ...commands];
  execFileSync(bin("tsx"), ["--conditions=react-server", path.join(root, "scripts", "admin.mts"), ...args], {
    cwd: root,
    stdio: "inherit",
  });
}

const local = readdirSync(target.migrationsPath, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const applied = await appliedMigrations(target);
const held = heldBack(applied, local);

if (applied !== null) admin("sessions:hash-tokens");
if (held.length > 0) migrateDeployWithout(held, local);
else migrateDeploy();
admin("sessions:hash-tokens", "accounts:clear-tokens");
if (held.length > 0 && noOldInstances) {
  migrateDeploy();
} else if (held.length > 0) {
  console.log(
    `keyport: held back ${held.join(", ")}: instances of the previous release may still be running. ` +
      "Run `npm run db:deploy` again once none is left: until then the database still holds what that " +
      "migration removes (session tokens in clear). See docs/operations.md.",
  );
}
try {
  // One process for both (a tsx start each costs seconds); the chains start only if the backfill passed.
  admin("audit:backfill", "audit:start-team-chains");
} catch {
  process.exit(3);
}
