import "server-only";
import Database from "better-sqlite3";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { CheckFailed } from "../command-support";
import {
  APPLIED_MIGRATIONS_SQL,
  NOT_DATA,
  STORED_FILES_SQL,
  type BackupDatabase,
  type Snapshot,
} from "./backup-database";
import { DATABASE_FILE } from "./manifest.schema";

// SQLite's side of a backup: SQLite's online backup API (better-sqlite3's
// db.backup()), both ways. The app keeps its database in WAL mode, where a
// reader never blocks a writer: the copy reads one snapshot while the server
// goes on writing, and every connection of a running server holds a shared
// lock on the file, which is how restore sees that one runs.

/**
 * Pages copied per step. better-sqlite3 copies 100 a step by default, and a write by another connection between
 * two steps starts the copy over, so under a steady load it could never end: every page in one step copies one
 * snapshot, under one read transaction.
 */
const EVERY_PAGE = 0x7fffffff;

/** How long the copy waits for a lock a writer holds for a moment (a checkpoint); the app's writes are short. */
const LOCK_WAIT_MS = 10_000;

function open(file: string): Database.Database {
  try {
    return new Database(file, { fileMustExist: true, timeout: LOCK_WAIT_MS });
  } catch {
    throw new CheckFailed(`The SQLite database ${file} cannot be opened.`);
  }
}

/** What the copy holds, read from the copy itself; a copy that fails SQLite's own check is refused. */
function readCopy(copy: string, takenAt: Date): Snapshot {
  const database = open(copy);
  try {
    const check = database.pragma("quick_check", { simple: true });
    if (check !== "ok") throw new CheckFailed(`The database's copy failed SQLite's check (${String(check)}).`);
    const migrations = database.prepare<[], { migration_name: string }>(APPLIED_MIGRATIONS_SQL).all();
    const files = database.prepare<[], { id: string; storagePath: string }>(STORED_FILES_SQL).all();
    return { takenAt, migrations: migrations.map((row) => row.migration_name), files };
  } catch (error) {
    if (error instanceof CheckFailed) throw error;
    throw new CheckFailed("The SQLite database holds no Keyport schema: there is nothing to back up.");
  } finally {
    database.close();
  }
}

async function copyDatabase(from: string, to: string): Promise<void> {
  const source = open(from);
  try {
    await source.backup(to, { progress: () => EVERY_PAGE });
  } finally {
    source.close();
  }
}

export function sqliteBackupDatabase(file: string): BackupDatabase {
  return {
    provider: "sqlite",
    fileName: DATABASE_FILE.sqlite,
    async snapshot(to) {
      const takenAt = new Date();
      await copyDatabase(file, to);
      return readCopy(to, takenAt);
    },
    async tablesWithRows() {
      if (!existsSync(file)) return [];
      const database = open(file);
      try {
        const tables = database
          .prepare<[], { name: string }>(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
          )
          .all()
          .map((row) => row.name)
          .filter((name) => !NOT_DATA.has(name));
        return tables.filter((name) => database.prepare(`SELECT 1 FROM "${name.replaceAll('"', '""')}" LIMIT 1`).get());
      } finally {
        database.close();
      }
    },
    /**
     * Whether another process has the file open: an exclusive lock is refused while any connection holds its shared
     * one, which every connection in WAL mode keeps from its first read until it closes (a running server's, the
     * operator command line's, sqlite3's). Not waited for: a refusal is the answer.
     */
    async inUse() {
      if (!existsSync(file)) return null;
      const probe = new Database(file, { fileMustExist: true, timeout: 0 });
      try {
        probe.pragma("locking_mode = EXCLUSIVE");
        probe.exec("BEGIN EXCLUSIVE; COMMIT");
        return null;
      } catch (error) {
        if (!/^SQLITE_(BUSY|LOCKED)/.test((error as { code?: string }).code ?? "")) throw error;
        return `Another process has ${file} open (a running server, or another command): stop it, then restore.`;
      } finally {
        probe.close();
      }
    },
    /** Through the same backup API into the database's own file: one transaction, so a restore cut short changes nothing. */
    async restore(from) {
      await mkdir(path.dirname(file), { recursive: true });
      // A new database file is made private, as the backup's copy was (SQLite gives its journals the file's mode).
      await writeFile(file, "", { mode: 0o600, flag: "wx" }).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "EEXIST") throw error;
      });
      await copyDatabase(from, file);
    },
  };
}
