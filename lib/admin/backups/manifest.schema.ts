import { z } from "zod";

// What a backup holds (npm run admin -- backup): one tar archive with this
// manifest, the database (SQLite's file, or pg_dump's custom format) and a
// copy of the uploaded files' folder. docs/operations.md, "Backups and restore".

export const MANIFEST_NAME = "manifest.json";
export const FILES_FOLDER = "files";
export const DATABASE_FILE = { sqlite: "database.sqlite", postgres: "database.pgdump" } as const;

export const manifestSchema = z.object({
  format: z.literal("keyport-backup"),
  version: z.literal(1),
  provider: z.enum(["sqlite", "postgres"]),
  /** When the database's snapshot was taken: what restore counts the backup's age from. */
  taken_at: z.iso.datetime(),
  /** How long the database's snapshot and the files' copy took. */
  took_ms: z.number().int().nonnegative(),
  /** The schema migrations the database had applied, by name. */
  migrations: z.array(z.string()),
  files: z.object({
    /** Files in the copied folder, and their bytes. */
    count: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    /** Ids of stored files whose row is in the backup but whose bytes were gone (pruned while it ran). */
    missing: z.array(z.string()),
  }),
  /** Tells whether the ENCRYPTION_KEY at restore is the one at backup, without saying anything of it. */
  encryption_key_check: z.string(),
});

export type Manifest = z.infer<typeof manifestSchema>;
