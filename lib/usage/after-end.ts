import "server-only";
import type { Db } from "../db";
import type { ErrorCode } from "../errors/error-catalog";
import { hourOf } from "./event";

// How often a key was tried once it no longer worked, said once for the
// dashboard (the notice on a key's page and under its row, lib/usage/signals.ts)
// and the operator CLI (key:usage's after_revocation, lib/usage/key-summary.ts).
// Read from the hourly counts by error code, which count every request: the
// request log keeps 120 a key and minute (lib/usage/buffer.ts), so a flood just
// before a revocation filled the minute and hid the uses after it, and it is
// kept 30 days against the counts' 400.

/** The answers a key gets once it no longer works: each counts as a use after revocation (or expiry). */
export const AFTER_END_CODES = ["revoked_api_key", "expired_api_key"] as const satisfies readonly ErrorCode[];

export interface AfterEndCount {
  count: number;
  /** The newest hour (hours since 1970, lib/usage/event.ts hourOf) with such a use. */
  lastHour: number;
}

/**
 * By key row id (ApiKey.id, as the usage tables hold it; the caller has checked they are the asker's): the uses
 * after the key stopped working, from the start of `since`'s hour, or as far back as the counts go.
 */
export async function afterEndCounts(
  db: Db,
  keyIds: readonly string[],
  since?: Date,
): Promise<Map<string, AfterEndCount>> {
  if (keyIds.length === 0) return new Map();
  const rows = await db.usageErrorHourly.groupBy({
    by: ["keyId"],
    where: {
      keyId: { in: [...keyIds] },
      errorCode: { in: [...AFTER_END_CODES] },
      ...(since ? { hour: { gte: hourOf(since) } } : {}),
    },
    _sum: { count: true },
    _max: { hour: true },
  });
  const counts = new Map<string, AfterEndCount>();
  for (const row of rows) {
    const count = row._sum.count ?? 0;
    if (count > 0 && row._max.hour !== null) counts.set(row.keyId, { count, lastHour: row._max.hour });
  }
  return counts;
}
