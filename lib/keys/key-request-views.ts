import "server-only";
import { db } from "../db";
import {
  decisionCutoff,
  decisionDeadline,
  keyRequestState,
  revealDeadline,
  type KeyRequestState,
} from "./key-request-state";
import { fromStoredRestrictions, type KeyRestrictions } from "./restrictions";

// What the dashboard and the operator CLI see of requests for production keys
// (lib/keys/key-requests.ts): what was asked, by whom, why, and where it
// stands. Never a secret: a request holds none.

export interface KeyRequestView {
  id: string;
  label: string;
  state: KeyRequestState;
  requester: { id: string; email: string | null };
  reason: string;
  expiresAt: Date | null;
  restrictions: KeyRestrictions;
  createdAt: Date;
  /** Pending: when it stops waiting for a decision. */
  decideBy: Date;
  decidedAt: Date | null;
  decidedBy: string | null;
  comment: string | null;
  /** Approved: when it can no longer be revealed. */
  revealBy: Date | null;
  revealedAt: Date | null;
  /** The key made at the reveal. */
  keyId: string | null;
}

const requestSelect = {
  publicId: true,
  label: true,
  status: true,
  userId: true,
  user: { select: { email: true } },
  reason: true,
  expiresAt: true,
  scopes: true,
  allowedIps: true,
  rateLimit: true,
  createdAt: true,
  decidedById: true,
  decidedAt: true,
  comment: true,
  revealedAt: true,
  keyPublicId: true,
} as const;

type Row = {
  publicId: string;
  label: string;
  status: string;
  userId: string;
  user: { email: string | null };
  reason: string;
  expiresAt: Date | null;
  scopes: string;
  allowedIps: string | null;
  rateLimit: number | null;
  createdAt: Date;
  decidedById: string | null;
  decidedAt: Date | null;
  comment: string | null;
  revealedAt: Date | null;
  keyPublicId: string | null;
};

async function toViews(rows: Row[], now: Date): Promise<KeyRequestView[]> {
  // Deciders by id (the row outlives them): their address, while they have an account.
  const deciderIds = [...new Set(rows.flatMap((row) => (row.decidedById ? [row.decidedById] : [])))];
  const deciders = new Map(
    (await db.user.findMany({ where: { id: { in: deciderIds } }, select: { id: true, email: true } })).map((user) => [
      user.id,
      user.email,
    ]),
  );
  return rows.map((row) => {
    const state = keyRequestState(row, now);
    return {
      id: row.publicId,
      label: row.label,
      state,
      requester: { id: row.userId, email: row.user.email },
      reason: row.reason,
      expiresAt: row.expiresAt,
      restrictions: fromStoredRestrictions(row),
      createdAt: row.createdAt,
      decideBy: decisionDeadline(row.createdAt),
      decidedAt: row.decidedAt,
      decidedBy: row.decidedById ? (deciders.get(row.decidedById) ?? "a former member") : null,
      comment: row.comment,
      revealBy: row.status === "approved" && row.decidedAt ? revealDeadline(row.decidedAt) : null,
      revealedAt: row.revealedAt,
      keyId: row.keyPublicId,
    };
  });
}

/** One request of the team, or null (another team's request is not there). */
export async function getKeyRequest(teamId: string, publicId: string, now = new Date()) {
  const row = await db.keyRequest.findFirst({ where: { teamId, publicId }, select: requestSelect });
  return row ? (await toViews([row], now))[0]! : null;
}

/**
 * The team's requests, newest first: every one for those who decide them, else the person's own. At most `take`;
 * the pending ones come first, so none waits out of sight.
 */
export async function listKeyRequests(
  teamId: string,
  options: { userId?: string; take?: number },
  now = new Date(),
): Promise<KeyRequestView[]> {
  const where = { teamId, ...(options.userId ? { userId: options.userId } : {}) };
  const pendingWhere = { ...where, status: "pending", createdAt: { gt: decisionCutoff(now) } };
  const take = options.take ?? 50;
  const [pending, recent] = await Promise.all([
    db.keyRequest.findMany({ where: pendingWhere, select: requestSelect, orderBy: { createdAt: "asc" }, take }),
    db.keyRequest.findMany({ where, select: requestSelect, orderBy: { createdAt: "desc" }, take }),
  ]);
  const seen = new Set(pending.map((row) => row.publicId));
  const rows = [...pending, ...recent.filter((row) => !seen.has(row.publicId))].slice(0, take);
  return toViews(rows, now);
}

/** How many requests wait for a decision in the team: the badge its admins see. */
export async function pendingRequestCount(teamId: string, now = new Date()): Promise<number> {
  return db.keyRequest.count({ where: { teamId, status: "pending", createdAt: { gt: decisionCutoff(now) } } });
}

/**
 * For the dashboard's navigation: the teams where "Requests" is worth a link (the team asks developers to request
 * production keys, or the person has made or may decide requests there), with the number waiting for those who
 * decide them (the badge) and null for the others.
 */
export async function requestLinks(
  userId: string,
  teams: { id: string; decides: boolean }[],
  now = new Date(),
): Promise<Map<string, number | null>> {
  const ids = teams.map((team) => team.id);
  const deciding = teams.filter((team) => team.decides).map((team) => team.id);
  if (ids.length === 0) return new Map();
  const [rules, pending, own] = await Promise.all([
    db.team.findMany({ where: { id: { in: ids }, productionKeys: "approval" }, select: { id: true } }),
    db.keyRequest.groupBy({
      by: ["teamId"],
      where: { teamId: { in: deciding }, status: "pending", createdAt: { gt: decisionCutoff(now) } },
      _count: { _all: true },
    }),
    db.keyRequest.groupBy({ by: ["teamId"], where: { teamId: { in: ids }, userId }, _count: { _all: true } }),
  ]);
  const waiting = new Map(pending.map((row) => [row.teamId, row._count._all]));
  const shown = new Set([...rules.map((row) => row.id), ...waiting.keys(), ...own.map((row) => row.teamId)]);
  return new Map(
    teams
      .filter((team) => shown.has(team.id))
      .map((team) => [team.id, team.decides ? (waiting.get(team.id) ?? 0) : null]),
  );
}
