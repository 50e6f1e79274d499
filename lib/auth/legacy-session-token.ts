import "server-only";
import { db } from "../db";
import { tokenDigest } from "../security/token";

// For one release only: the move from Session.sessionToken (the cookie's
// value in clear) to Session.tokenHash (its SHA-256). Between the migrations
// session_token_hash and drop_session_token (docs/operations.md), instances
// of the previous release are still running during a rolling deploy, and
// they know only the old column. So this release also writes the token there
// while it exists, so an old instance finds a session made here, and adopts a
// session an old instance made, hashing it on its first use here. Raw SQL,
// the same on both databases: the Prisma schema no longer has the column.
// Every function is a no-op once drop_session_token has removed it. Delete
// this file in the first release after that migration.

/**
 * The error a statement gets when one of the two columns is not there: the
 * old one once drop_session_token ran, the new one before session_token_hash
 * (the deploy's backfill runs before the migrations too). SQLite, PostgreSQL.
 */
function columnMissing(error: unknown): boolean {
  const text = String((error as Error)?.message ?? error);
  return /sessionToken|tokenHash/.test(text) && /no such column|does not exist/i.test(text);
}

async function whileColumnExists<T>(statement: () => Promise<T>, otherwise: T): Promise<T> {
  try {
    return await statement();
  } catch (error) {
    if (columnMissing(error)) return otherwise;
    throw error;
  }
}

/** Writes a new session's token in clear too, while the old column exists, so the previous release can read it. */
export function writeLegacyToken(sessionId: string, token: string): Promise<unknown> {
  return whileColumnExists(
    () => db.$executeRaw`UPDATE "Session" SET "sessionToken" = ${token} WHERE "id" = ${sessionId}`,
    0,
  );
}

/**
 * A session the previous release made since the deploy's backfill, which has
 * no hash yet: given its hash now, so the lookup by hash finds it. True when
 * there was one.
 */
export function adoptLegacySession(token: string): Promise<boolean> {
  return whileColumnExists(async () => {
    const adopted = await db.$executeRaw`UPDATE "Session" SET "tokenHash" = ${tokenDigest(token)}
      WHERE "sessionToken" = ${token} AND "tokenHash" IS NULL`;
    return adopted === 1;
  }, false);
}

/** Deletes a session by its token in clear (one the previous release made and this one never saw). */
export function deleteLegacySession(token: string): Promise<unknown> {
  return whileColumnExists(() => db.$executeRaw`DELETE FROM "Session" WHERE "sessionToken" = ${token}`, 0);
}

/**
 * Hashes every session that has only its token in clear: the deploy's
 * backfill (admin sessions:hash-tokens, run by `npm run db:deploy` before and
 * after the migrations), and before a user's sessions are ended. Returns how
 * many it hashed; 0 before session_token_hash and after drop_session_token.
 */
export async function hashLegacyTokens(userId?: string): Promise<number> {
  const rows = await whileColumnExists(
    () =>
      userId === undefined
        ? db.$queryRaw<{ id: string; sessionToken: string }[]>`SELECT "id", "sessionToken" FROM "Session"
            WHERE "tokenHash" IS NULL AND "sessionToken" IS NOT NULL`
        : db.$queryRaw<{ id: string; sessionToken: string }[]>`SELECT "id", "sessionToken" FROM "Session"
            WHERE "tokenHash" IS NULL AND "sessionToken" IS NOT NULL AND "userId" = ${userId}`,
    [],
  );
  let hashed = 0;
  for (const row of rows) {
    hashed += await db.$executeRaw`UPDATE "Session" SET "tokenHash" = ${tokenDigest(row.sessionToken)}
      WHERE "id" = ${row.id} AND "tokenHash" IS NULL`;
  }
  return hashed;
}
