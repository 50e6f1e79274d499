import Database from "better-sqlite3";
import { db, dbProvider } from "@/lib/db";
import { sqliteFile } from "@/lib/db-target";

/**
 * Takes what the next write needs and keeps it until the returned function is called: SQLite's one write lock,
 * from another connection; on PostgreSQL the ORM pool's connections (a test file sets DATABASE_POOL_SIZE=1 and a
 * short DATABASE_TIMEOUT_MS before its runtime is made), by a transaction that waits.
 */
export async function holdTheDatabase(): Promise<() => Promise<void>> {
  if (dbProvider() === "sqlite") {
    const other = new Database(sqliteFile(process.env.DATABASE_URL!, process.cwd()));
    other.exec("BEGIN IMMEDIATE");
    return async () => {
      other.exec("ROLLBACK");
      other.close();
    };
  }
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const holding = new Promise<void>((resolve) => (started = resolve));
  const transaction = db.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT 1`;
      started();
      await released;
    },
    { timeout: 30_000 },
  );
  await holding;
  return async () => {
    release();
    await transaction;
  };
}
