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
