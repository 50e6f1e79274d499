import "server-only";
import { db } from "../db";
import type { KeyEnvironment } from "./format";
import { statusWhere, type KeyStatus } from "./status";
import { keyViewSelect, toKeyView, type KeyView } from "./views";

export const KEYS_PAGE_SIZE = 25;
export const ACTIVITY_PAGE_SIZE = 50;

export interface KeyFilter {
  environment?: KeyEnvironment | undefined;
  status?: KeyStatus | undefined;
  /** With no status chosen: list revoked and expired keys too (hidden by default). */
  showInactive?: boolean | undefined;
  page?: number | undefined;
}

export interface Page<T> {
  items: T[];
  page: number;
  pageCount: number;
  total: number;
}

/** Clamps a requested page into 1..pageCount. */
function pageOf(total: number, requested: number | undefined, size: number) {
  const pageCount = Math.max(1, Math.ceil(total / size));
  const page = Math.min(Math.max(1, requested ?? 1), pageCount);
  return { page, pageCount, skip: (page - 1) * size, take: size };
}

/** How far ahead a key's expiry brings it to the top of the list: the first expiry reminder's distance. */
export const EXPIRING_SOON_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * One page of the team's keys: those in use that expire within 7 days first, soonest first (someone must renew them),
 * then the rest, newest first. Always scoped to the team.
 */
export async function listKeys(teamId: string, filter: KeyFilter = {}, now = new Date()): Promise<Page<KeyView>> {
  const where = {
    teamId,
    ...(filter.environment ? { environment: filter.environment } : {}),
    ...(filter.status ? statusWhere(filter.status, now) : filter.showInactive ? {} : statusWhere("usable", now)),
  };
  // A rotated key in its grace has a replacement already: it is not one to renew.
  const soonEnd = new Date(now.getTime() + EXPIRING_SOON_MS);
  const first = { AND: [where, { revokedAt: null, successorId: null, expiresAt: { gt: now, lte: soonEnd } }] };
  // Its complement, spelt out: NOT over a null expiry would drop the keys that never expire (SQL's unknown).
  const rest = {
    AND: [
      where,
      {
        OR: [
          { expiresAt: null },
          { expiresAt: { lte: now } },
          { expiresAt: { gt: soonEnd } },
          { revokedAt: { not: null } },
          { successorId: { not: null } },
        ],
      },
    ],
  };
  const [firstCount, restCount] = await Promise.all([
    db.apiKey.count({ where: first }),
    db.apiKey.count({ where: rest }),
  ]);
  const total = firstCount + restCount;
  const { page, pageCount, skip, take } = pageOf(total, filter.page, KEYS_PAGE_SIZE);
  const fromFirst = Math.max(0, Math.min(take, firstCount - skip));
  const [firstRows, restRows] = await Promise.all([
    fromFirst > 0
      ? db.apiKey.findMany({
          where: first,
          orderBy: [{ expiresAt: "asc" }, { id: "asc" }],
          skip,
          take: fromFirst,
          select: keyViewSelect,
        })
      : [],
    take - fromFirst > 0
      ? db.apiKey.findMany({
          where: rest,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          skip: Math.max(0, skip - firstCount),
          take: take - fromFirst,
          select: keyViewSelect,
        })
      : [],
  ]);
  return { items: [...firstRows, ...restRows].map((row) => toKeyView(row, now)), page, pageCount, total };
}

/** One of the team's keys by its public id, or null: another team's key is "not found". */
export async function getKey(teamId: string, publicId: string, now = new Date()): Promise<KeyView | null> {
  const row = await db.apiKey.findFirst({ where: { publicId, teamId }, select: keyViewSelect });
  return row ? toKeyView(row, now) : null;
}

export interface ActivityEntry {
  id: string;
  action: string;
  keyId: string | null;
  ip: string | null;
  userAgent: string | null;
  details: Record<string, unknown> | null;
  createdAt: Date;
  /** How many times it happened, for an entry that stands for repeats (a decoy's uses in an hour). */
  count: number;
  /**
   * Who acted, from a team's chain: a person, the operator CLI, a report or
   * Keyport itself; null for a row from before team chains, in an account's
   * chain (its browser says whether the operator or a report made it).
   */
  actorKind: string | null;
  /** The person who acted (or, for the operator and reports, in whose name), when their account is still there. */
  actorEmail: string | null;
}

type Where<T> = T extends { findMany(args: { where?: infer W }): unknown } ? W : never;

/**
 * A team's activity, newest first, optionally for one of its keys: its own
 * chain (every change to its keys and members, by whoever made it), and the
 * changes to its keys made before teams had chains, which stay in their
 * authors' account chains. A person's own account events are on their
 * account page (listAccountActivity).
 */
export async function listActivity(
  team: { id: string },
  options: { keyId?: string | undefined; page?: number | undefined; pageSize?: number | undefined } = {},
) {
  const keyIds = options.keyId
    ? (await db.apiKey.count({ where: { teamId: team.id, publicId: options.keyId } })) > 0
      ? [options.keyId]
      : []
    : (await db.apiKey.findMany({ where: { teamId: team.id }, select: { publicId: true } })).map((k) => k.publicId);
  const teamWhere: Where<typeof db.teamAuditEvent> = options.keyId
    ? { teamId: team.id, keyId: keyIds[0] ?? "" }
    : { teamId: team.id };
  const earlierWhere: Where<typeof db.auditEvent> = { keyId: { in: keyIds } };
  const [teamTotal, earlierTotal] = await Promise.all([
    db.teamAuditEvent.count({ where: teamWhere }),
    db.auditEvent.count({ where: earlierWhere }),
  ]);
  const total = teamTotal + earlierTotal;
  const { page, pageCount, skip, take } = pageOf(total, options.page, options.pageSize ?? ACTIVITY_PAGE_SIZE);
  // The page's rows are among the first skip + take of each, newest first: merged, then cut.
  const newest = [{ createdAt: "desc" as const }, { id: "desc" as const }];
  const [teamRows, earlierRows] = await Promise.all([
    // In one chain, the order rows were chained in (two rows of one change share their time).
    db.teamAuditEvent.findMany({
      where: teamWhere,
      orderBy: [{ createdAt: "desc" }, { seq: "desc" }],
      take: skip + take,
    }),
    earlierTotal === 0
      ? []
      : db.auditEvent.findMany({
          where: earlierWhere,
          orderBy: newest,
          take: skip + take,
          include: { user: { select: { email: true } } },
        }),
  ]);
  const actorIds = [...new Set(teamRows.map((row) => row.actorId).filter((id): id is string => id !== null))];
  const emails = new Map(
    (await db.user.findMany({ where: { id: { in: actorIds } }, select: { id: true, email: true } })).map((user) => [
      user.id,
      user.email,
    ]),
  );
  const entry = (row: (typeof teamRows)[number] | (typeof earlierRows)[number]): ActivityEntry => ({
    id: row.id,
    action: row.action,
    keyId: row.keyId,
    ip: row.ip,
    userAgent: row.userAgent,
    details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null,
    createdAt: row.createdAt,
    count: row.count,
    actorKind: "actorKind" in row ? row.actorKind : null,
    actorEmail: "user" in row ? row.user.email : row.actorId ? (emails.get(row.actorId) ?? null) : null,
  });
  const items = [...teamRows, ...earlierRows]
    .map(entry)
    // A stable sort by time alone keeps each list's own order among rows of the same time.
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .slice(skip, skip + take);
  return { items, page, pageCount, total } satisfies Page<ActivityEntry>;
}

/** A person's own account events (sign-ins, sessions, password, two-factor), newest first: their account page. */
export async function listAccountActivity(userId: string, options: { page?: number | undefined } = {}) {
  const where = { userId, keyId: null };
  const total = await db.auditEvent.count({ where });
  const { page, pageCount, skip, take } = pageOf(total, options.page, ACTIVITY_PAGE_SIZE);
  const rows = await db.auditEvent.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip,
    take,
  });
  const items: ActivityEntry[] = rows.map((row) => ({
    id: row.id,
    action: row.action,
    keyId: null,
    ip: row.ip,
    userAgent: row.userAgent,
    details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null,
    createdAt: row.createdAt,
    count: row.count,
    actorKind: null,
    actorEmail: null,
  }));
  return { items, page, pageCount, total } satisfies Page<ActivityEntry>;
}

export interface ReportedLeak {
  keyId: string;
  label: string;
  environment: KeyEnvironment;
  source: "secret-scanning" | "public-report";
  url: string | null;
  revokedAt: Date;
}

/** The team's keys a report (not a member) revoked, which no member has yet dismissed from the dashboard. */
export async function listReportedLeaks(teamId: string): Promise<ReportedLeak[]> {
  const rows = await db.apiKey.findMany({
    where: { teamId, leakSource: { not: null }, leakSeenAt: null, revokedAt: { not: null } },
    orderBy: { revokedAt: "desc" },
    take: 20,
    select: { publicId: true, label: true, environment: true, leakSource: true, leakUrl: true, revokedAt: true },
  });
  return rows.map((row) => ({
    keyId: row.publicId,
    label: row.label,
    environment: row.environment as KeyEnvironment,
    source: row.leakSource === "secret-scanning" ? "secret-scanning" : "public-report",
    url: row.leakUrl,
    revokedAt: row.revokedAt!,
  }));
}

export interface DecoyUses {
  count: number;
  /** The latest alert: the first use in the latest hour with any. */
  lastAt: Date;
  lastIp: string | null;
}

/**
 * How often each of these decoy keys of the team was used (its hourly alerts in the activity log, counted), and
 * the latest alert.
 */
export async function decoyUses(teamId: string, keyIds: string[]): Promise<Map<string, DecoyUses>> {
  const uses = new Map<string, DecoyUses>();
  const ofTeam = await db.apiKey.findMany({ where: { teamId, publicId: { in: keyIds } }, select: { publicId: true } });
  keyIds = ofTeam.map((key) => key.publicId);
  if (keyIds.length === 0) return uses;
  // The team's chain, and the alerts recorded in its makers' account chains before teams had chains.
  const select = { keyId: true, createdAt: true, ip: true, count: true } as const;
  const rows = [
    ...(await db.teamAuditEvent.findMany({
      where: { teamId, action: "key.decoy_used", keyId: { in: keyIds } },
      orderBy: { createdAt: "desc" },
      take: 1_000,
      select,
    })),
    ...(await db.auditEvent.findMany({
      where: { action: "key.decoy_used", keyId: { in: keyIds } },
      orderBy: { createdAt: "desc" },
      take: 1_000,
      select,
    })),
  ].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  for (const row of rows) {
    const seen = uses.get(row.keyId!);
    if (seen) seen.count += row.count;
    else uses.set(row.keyId!, { count: row.count, lastAt: row.createdAt, lastIp: row.ip });
  }
  return uses;
}
