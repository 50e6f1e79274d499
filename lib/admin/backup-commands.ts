import "server-only";
import { createHmac } from "node:crypto";
import { existsSync } from "node:fs";
import { access, mkdir, mkdtemp, readdir, realpath, rm, stat } from "node:fs/promises";
import path from "node:path";
import { auditChainKey } from "../audit-key";
import { databaseTarget, sqliteFile, type Provider } from "../db-target";
import type { Env } from "../env-schema";
import { filesRoot } from "../files/store";
import { relativeTime } from "../format-time";
import { runtime } from "../runtime/runtime";
import { packArchive, unpackArchive } from "./backups/archive";
import type { BackupDatabase } from "./backups/backup-database";
import { copyFilesFolder, missingFiles, putFilesInPlace } from "./backups/files-folder";
import { FILES_FOLDER, type Manifest } from "./backups/manifest.schema";
import { postgresBackupDatabase } from "./backups/postgres-database";
import { sqliteBackupDatabase } from "./backups/sqlite-database";
import { CheckFailed, UsageError, type Flags, type Io } from "./command-support";

// backup and restore: the database and the uploaded files in one archive, and
// back (docs/operations.md, "Backups and restore"). Both take the database and
// the files' folder from the runtime's environment (the command line's own, or
// the one a test made a runtime with) and never open the app's database
// client: restore must find no connection of this process on what it replaces.

const PROVIDER_NAMES: Record<Provider, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };

function databaseOf(env: Env): BackupDatabase {
  const target = databaseTarget(env.DATABASE_URL, process.cwd());
  return target.provider === "sqlite"
    ? sqliteBackupDatabase(sqliteFile(target.url, process.cwd()))
    : postgresBackupDatabase(target.url);
}

/** A relative name is the caller's: npm run moves to the package's folder, and says where it was in INIT_CWD. */
function fileFlag(value: string | undefined, flag: "to" | "from"): string {
  if (!value?.trim()) throw new UsageError(`--${flag}: give the backup's file`);
  return path.resolve(process.env.INIT_CWD || process.cwd(), value.trim());
}

/** Whether `file` would land inside the folder `root`, through links too (a backup there would back itself up). */
async function isInside(file: string, root: string): Promise<boolean> {
  const real = async (name: string) => realpath(name).catch(() => path.resolve(name));
  const folder = await real(path.dirname(file));
  const relative = path.relative(await real(root), folder);
  const outside = relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
  return !outside;
}

/** Whether ENCRYPTION_KEY at restore is the one the backup was taken under: an HMAC under a key derived from it. */
function encryptionKeyCheck(): string {
  return createHmac("sha256", auditChainKey()).update("keyport backup v1").digest("hex").slice(0, 16);
}

/** backup --to FILE: the database (one consistent snapshot, taken while the app writes) and the files' folder. */
export async function backupCommand(flags: Flags, io: Io) {
  const to = fileFlag(flags.to, "to");
  if (existsSync(to)) throw new UsageError(`--to: ${to} exists: a backup never replaces one, give a new name`);
  const env = runtime().env;
  if (await isInside(to, filesRoot(env))) {
    throw new UsageError(
      `--to: ${to} is inside FILES_DIR (${filesRoot(env)}): keep backups out of the uploads' folder`,
    );
  }
  const database = databaseOf(env);
  const started = performance.now();
  // Beside the archive, so the copies are on the disk meant to hold it (uploads there are hard links, not copies).
  const staging = await mkdtemp(path.join(path.dirname(to), ".keyport-backup-")).catch(() => {
    throw new UsageError(`--to: cannot write in ${path.dirname(to)}`);
  });
  try {
    const snapshot = await database.snapshot(path.join(staging, database.fileName));
    const folder = path.join(staging, FILES_FOLDER);
    const totals = await copyFilesFolder(filesRoot(env), folder);
    const missing = await missingFiles(folder, snapshot.files);
    const manifest: Manifest = {
      format: "keyport-backup",
      version: 1,
      provider: database.provider,
      taken_at: snapshot.takenAt.toISOString(),
      took_ms: Math.round(performance.now() - started),
      migrations: snapshot.migrations,
      files: { count: totals.count, bytes: totals.bytes, missing },
      encryption_key_check: encryptionKeyCheck(),
    };
    await packArchive(staging, manifest, [database.fileName, FILES_FOLDER], to);
    if (missing.length > 0) {
      io.stderr.write(
        `admin: ${missing.length} stored file(s) were pruned while the backup ran: their rows are in it, their bytes ` +
          `are not (${missing.join(", ")}); the next pruning after a restore removes those rows\n`,
      );
    }
    return {
      backup: to,
      provider: database.provider,
      taken_at: manifest.taken_at,
      took_ms: Math.round(performance.now() - started),
      bytes: (await stat(to)).size,
      migrations: snapshot.migrations.length,
      files: totals.count,
      files_bytes: totals.bytes,
      ...(missing.length > 0 ? { missing_files: missing } : {}),
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** The release's migrations the backup lacks: db:deploy applies them before the server starts. */
async function pendingMigrations(env: Env, applied: string[]): Promise<string[]> {
  const folder = databaseTarget(env.DATABASE_URL, process.cwd()).migrationsPath;
  const entries = await readdir(folder, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory() && !applied.includes(entry.name))
    .map((entry) => entry.name)
    .sort();
}

/** What an operator must know after a restore, on standard error; the JSON on standard output says it too. */
function restoreNotes(manifest: Manifest, age: string, pending: string[], sameKey: boolean, keptAside: string | null) {
  return [
    `restored a backup taken ${age} (${manifest.taken_at}).`,
    "Keys revoked since the backup was taken work again until they are revoked anew: revoke them again " +
      "(key:revoke). Everything else done since is undone too (sessions signed out since are valid again).",
    ...(pending.length > 0
      ? [`The backup lacks ${pending.length} migration(s) of this release: run npm run db:deploy before starting.`]
      : []),
    ...(sameKey
      ? []
      : [
          "The backup was taken under another ENCRYPTION_KEY: set that one before starting (two-factor secrets, " +
            "queued links and the activity chain need it; audit:verify fails without it).",
        ]),
    ...(keptAside ? [`The files folder that was there is kept at ${keptAside}: delete it when done with it.`] : []),
  ];
}

/** restore --from FILE [--force]: puts a backup's database and files back, refusing what would lose data unasked. */
export async function restoreCommand(flags: Flags, io: Io) {
  const from = fileFlag(flags.from, "from");
  await access(from).catch(() => {
    throw new UsageError(`--from: cannot read ${from}`);
  });
  const env = runtime().env;
  const database = databaseOf(env);
  const root = filesRoot(env);
  // Unpacked beside the files' folder, so the backup's is moved into place rather than copied.
  await mkdir(path.dirname(root), { recursive: true });
  const staging = await mkdtemp(path.join(path.dirname(root), ".keyport-restore-"));
  try {
    // The whole archive is checked (members, types, manifest) before anything here is touched.
    const manifest = await unpackArchive(from, staging);
    if (manifest.provider !== database.provider) {
      throw new CheckFailed(
        `${from} is a backup of a ${PROVIDER_NAMES[manifest.provider]} database; DATABASE_URL names a ` +
          `${PROVIDER_NAMES[database.provider]} one.`,
      );
    }
    if (!flags.force) {
      const holding = await database.tablesWithRows();
      if (holding.length > 0) {
        const named = holding.slice(0, 5).join(", ") + (holding.length > 5 ? ", ..." : "");
        throw new CheckFailed(
          `The database holds data (rows in ${named}): restore replaces all of it only when given --force.`,
        );
      }
    }
    const inUse = await database.inUse();
    if (inUse) throw new CheckFailed(inUse);
    await database.restore(path.join(staging, database.fileName), manifest);
    const placed = await putFilesInPlace(path.join(staging, FILES_FOLDER), root);
    const takenAt = new Date(manifest.taken_at);
    const age = Date.now() - takenAt.getTime() < 60_000 ? "less than a minute ago" : relativeTime(takenAt);
    const pending = await pendingMigrations(env, manifest.migrations);
    const sameKey = manifest.encryption_key_check === encryptionKeyCheck();
    for (const note of restoreNotes(manifest, age, pending, sameKey, placed.keptAside)) {
      io.stderr.write(`admin: ${note}\n`);
    }
    return {
      restored: from,
      provider: database.provider,
      backup_taken_at: manifest.taken_at,
      backup_age: age,
      backup_age_seconds: Math.max(0, Math.round((Date.now() - takenAt.getTime()) / 1000)),
      migrations: manifest.migrations.length,
      pending_migrations: pending,
      files: placed.files,
      encryption_key: sameKey ? "same" : "different",
      ...(placed.keptAside ? { kept_aside: placed.keptAside } : {}),
      warning: "Keys revoked since the backup was taken work again until they are revoked anew.",
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
