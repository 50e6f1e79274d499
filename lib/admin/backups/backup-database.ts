import "server-only";
import type { Provider } from "../../db-target";
import type { Manifest } from "./manifest.schema";

// One database as backup and restore see it, whichever the provider.

export interface Snapshot {
  /** When the snapshot was taken: the database as it was at this moment is in the copy. */
  takenAt: Date;
  /** The schema migrations applied, as the snapshot has them. */
  migrations: string[];
  /** The stored files the snapshot's rows name. */
  files: { id: string; storagePath: string }[];
}

export interface BackupDatabase {
  provider: Provider;
  /** The database's name inside the archive. */
  fileName: string;
  /** Copies one consistent state of the database into `to` while the app goes on writing. */
  snapshot(to: string): Promise<Snapshot>;
  /** The tables holding rows, but the migrations' own and the instances' registry: none in a new database. */
  tablesWithRows(): Promise<string[]>;
  /** Why the database cannot be replaced now (a server uses it), or null. */
  inUse(): Promise<string | null>;
  /** Replaces the whole database with the backup's copy `from`. */
  restore(from: string, manifest: Manifest): Promise<void>;
}

/** Tables whose rows are not data: the applied migrations, and the instances' heartbeats (lib/instances). */
export const NOT_DATA = new Set(["_prisma_migrations", "GateInstance"]);

export const APPLIED_MIGRATIONS_SQL = `SELECT migration_name FROM "_prisma_migrations"
  WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`;
export const STORED_FILES_SQL = `SELECT "id", "storagePath" FROM "StoredFile" ORDER BY "id"`;
