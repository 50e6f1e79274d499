import { recordAudit, type AuditAction } from "@/lib/audit";
import { db } from "@/lib/db";

// The two kinds of activity chain, as tests read and fill them: an account's
// holds only its person's own account events (sign-ins, password changes...),
// a team's holds every key event and team event (lib/audit.ts). A key made or
// rotated no longer adds a row to its maker's account chain.

/**
 * Writes account events as the app does (lib/audit.ts recordAudit, each in a
 * transaction of its own): one keyed row each, in order, in the account's chain.
 */
export async function recordAccountEvents(
  userId: string,
  actions: readonly AuditAction[],
  from: { ip: string | null; userAgent: string | null } = { ip: "198.51.100.4", userAgent: "vitest" },
) {
  for (const action of actions) await db.$transaction((tx) => recordAudit(tx, { userId, ...from }, action, null));
}

/** An account's chain, row 1 first. */
export const accountRows = (userId: string) => db.auditEvent.findMany({ where: { userId }, orderBy: { seq: "asc" } });

/** A team's chain, row 1 first. */
export const teamRows = (teamId: string) => db.teamAuditEvent.findMany({ where: { teamId }, orderBy: { seq: "asc" } });
