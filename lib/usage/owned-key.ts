import "server-only";
import { db } from "../db";

/**
 * A key's row id from its public id, only when the user owns it. Usage rows
 * carry the row id, which never leaves lib/: every usage query starts here,
 * so another user's key id finds nothing.
 */
export async function ownedKeyRowId(userId: string, publicId: string): Promise<string | null> {
  const row = await db.apiKey.findFirst({ where: { publicId, userId }, select: { id: true } });
  return row?.id ?? null;
}

/** The row ids of those of `publicIds` the user owns, mapped to their public ids. */
export async function ownedKeyRows(userId: string, publicIds: readonly string[]): Promise<Map<string, string>> {
  if (publicIds.length === 0) return new Map();
  const rows = await db.apiKey.findMany({
    where: { userId, publicId: { in: [...publicIds] } },
    select: { id: true, publicId: true },
  });
  return new Map(rows.map((row) => [row.id, row.publicId]));
}
