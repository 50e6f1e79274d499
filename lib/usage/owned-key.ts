import "server-only";
import { db } from "../db";

/**
 * A key's row id from its public id, only when it is the team's. Usage rows
 * carry the row id, which never leaves lib/: every usage query starts here,
 * so another team's key id finds nothing.
 */
export async function ownedKeyRowId(teamId: string, publicId: string): Promise<string | null> {
  const row = await db.apiKey.findFirst({ where: { publicId, teamId }, select: { id: true } });
  return row?.id ?? null;
}

/** The row ids of those of `publicIds` the team owns, mapped to their public ids. */
export async function ownedKeyRows(teamId: string, publicIds: readonly string[]): Promise<Map<string, string>> {
  if (publicIds.length === 0) return new Map();
  const rows = await db.apiKey.findMany({
    where: { teamId, publicId: { in: [...publicIds] } },
    select: { id: true, publicId: true },
  });
  return new Map(rows.map((row) => [row.id, row.publicId]));
}
