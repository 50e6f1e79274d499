import "server-only";
import { db, dbProvider } from "../db";
import { actionsOfKind, type ActivityKind } from "../activity-events";
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
  /** Part of a key's label, its id or the part of its secret shown (`sk_prod_Ab3x…9fQz`). */
  search?: string | undefined;
  page?: number | undefined;
}

/** Holds the text, in any case: SQLite's LIKE ignores case for ASCII letters; PostgreSQL is told to. */
function holding(text: string) {
  return dbProvider() === "postgres" ? { contains: text, mode: "insensitive" as const } : { contains: text };
}

/** The search's three readings: by label, by id, or by the shown part of the secret ("…" or not, as it is copied). */
function searchOr(search: string) {
  const shown = search.split("…");
  return [
    { label: holding(search) },
    { publicId: holding(search) },
    // "sk_prod_Ab3x…9fQz" copied from the list: both its ends must match.
    shown.length === 2
      ? { AND: [{ displayFragment: holding(`${shown[0]}…`) }, { displayFragment: holding(`…${shown[1]}`) }] }
      : { displayFragment: holding(search) },
  ];
}

/** The same readings in JavaScript, for the rows a LIKE pattern with wildcards in it found. */
function matchesSearch(key: { label: string; publicId: string; displayFragment: string }, search: string): boolean {
  const has = (text: string, part: string) => text.toLowerCase().includes(part.toLowerCase());
  const shown = search.split("…");
  return (
    has(key.label, search) ||
    has(key.publicId, search) ||
    (shown.length === 2
      ? has(key.displayFragment, `${shown[0]}…`) && has(key.displayFragment, `…${shown[1]}`)
      : has(key.displayFragment, search))
  );
}

/**
 * The filter a search adds. Prisma's `contains` is a LIKE that does not escape `%` and `_` (prisma/prisma#19506),
 * and SQLite's LIKE has no escape without an ESCAPE clause Prisma cannot write; a pattern with either only finds
 * more, never fewer, so such a search reads the rows it finds and keeps those that hold the text as typed.
 */
async function searchWhere(teamId: string, search: string | undefined) {
  if (!search) return {};
  if (!/[%_]/.test(search)) return { OR: searchOr(search) };
  const found = await db.apiKey.findMany({
    where: { teamId, OR: searchOr(search) },
    select: { id: true, label: true, publicId: true, displayFragment: true },
  });
  return { id: { in: found.filter((key) => matchesSearch(key, search)).map((key) => key.id) } };
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
    // Each in its own AND: the status and the search both say OR.
    AND: [
      filter.status ? statusWhere(filter.status, now) : filter.showInactive ? {} : statusWhere("usable", now),
      await searchWhere(teamId, filter.search),
    ],
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
type ActivityFilter = {
  keyId?: string | undefined;
  /** Only events of this kind (lib/activity-events.ts). */
  kind?: ActivityKind | undefined;
};

/**
 * A team's activity comes from two places: its own chain, and the rows its keys had in their makers' account chains
 * from before team chains. The filters as a `where` for each.
 */
async function activityWhere(team: { id: string }, options: ActivityFilter) {
  const ofKind = options.kind ? { action: { in: actionsOfKind(options.kind) } } : {};
  const keyIds = options.keyId
    ? (await db.apiKey.count({ where: { teamId: team.id, publicId: options.keyId } })) > 0
      ? [options.keyId]
      : []
    : (await db.apiKey.findMany({ where: { teamId: team.id }, select: { publicId: true } })).map((k) => k.publicId);
  const teamWhere: Where<typeof db.teamAuditEvent> = options.keyId
    ? { teamId: team.id, keyId: keyIds[0] ?? "", ...ofKind }
    : { teamId: team.id, ...ofKind };
  const earlierWhere: Where<typeof db.auditEvent> = { keyId: { in: keyIds }, ...ofKind };
  return { teamWhere, earlierWhere };
}

type TeamRow = Awaited<ReturnType<typeof db.teamAuditEvent.findMany>>[number];
type EarlierRow = Awaited<ReturnType<typeof db.auditEvent.findMany>>[number] & { user: { email: string } };

/** Rows of either source as entries, each naming who acted (their address, while their account is there). */
async function toActivityEntries(rows: (TeamRow | EarlierRow)[]): Promise<ActivityEntry[]> {
  const actorIds = [...new Set(rows.flatMap((row) => ("actorId" in row && row.actorId !== null ? [row.actorId] : [])))];
  const emails = new Map(
    (await db.user.findMany({ where: { id: { in: actorIds } }, select: { id: true, email: true } })).map((user) => [
      user.id,
      user.email,
    ]),
  );
  return rows.map((row) => ({
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
  }));
}

export async function listActivity(
  team: { id: string },
  options: ActivityFilter & { page?: number | undefined; pageSize?: number | undefined } = {},
) {
  const { teamWhere, earlierWhere } = await activityWhere(team, options);
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
  const items = (await toActivityEntries([...teamRows, ...earlierRows]))
    // A stable sort by time alone keeps each list's own order among rows of the same time.
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .slice(skip, skip + take);
  return { items, page, pageCount, total } satisfies Page<ActivityEntry>;
}

/**
 * The whole of a team's activity with the page's filters, newest first, `size` entries at a time, for a download:
 * the team's chain in the order it was chained (by its sequence number, a keyset that rows written meanwhile cannot
 * shift), then the older rows from the account chains (by time and id). Each batch is one indexed read, so a long
 * history costs what its length costs, and only a batch sits in memory (an attack review: reading page after page
 * read each earlier page again, 19 s and half a gigabyte for 50,000 rows).
 */
export async function* activityBatches(
  team: { id: string },
  options: ActivityFilter,
  size = 500,
): AsyncGenerator<ActivityEntry[]> {
  const { teamWhere, earlierWhere } = await activityWhere(team, options);
  let seq: number | null = null;
  for (;;) {
    const rows: TeamRow[] = await db.teamAuditEvent.findMany({
      where: { AND: [teamWhere, seq === null ? {} : { seq: { lt: seq } }] },
      orderBy: { seq: "desc" },
      take: size,
    });
    if (rows.length > 0) yield await toActivityEntries(rows);
    if (rows.length < size) break;
    seq = rows.at(-1)!.seq;
  }
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const rows: EarlierRow[] = await db.auditEvent.findMany({
      where: {
        AND: [
          earlierWhere,
          after === null
            ? {}
            : { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] },
        ],
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: size,
      include: { user: { select: { email: true } } },
    });
    if (rows.length > 0) yield await toActivityEntries(rows);
    if (rows.length < size) break;
    after = { createdAt: rows.at(-1)!.createdAt, id: rows.at(-1)!.id };
  }
}

/** Every key of the team, newest first, as the activity filter lists them: id and label. */
export async function teamKeyChoices(teamId: string): Promise<{ id: string; label: string }[]> {
  const rows = await db.apiKey.findMany({
    where: { teamId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { publicId: true, label: true },
  });
  return rows.map((row) => ({ id: row.publicId, label: row.label }));
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
  /** The key that replaced it, when it was in a rotation's grace period: that one goes on working. */
  replacement: { keyId: string; label: string } | null;
}

/** The team's keys a report (not a member) revoked, which no member has yet dismissed from the dashboard. */
export async function listReportedLeaks(teamId: string): Promise<ReportedLeak[]> {
  const rows = await db.apiKey.findMany({
    where: { teamId, leakSource: { not: null }, leakSeenAt: null, revokedAt: { not: null } },
    orderBy: { revokedAt: "desc" },
    take: 20,
    select: {
      publicId: true,
      label: true,
      environment: true,
      leakSource: true,
      leakUrl: true,
      revokedAt: true,
      successor: { select: { publicId: true, label: true } },
    },
  });
  return rows.map((row) => ({
    keyId: row.publicId,
    label: row.label,
    environment: row.environment as KeyEnvironment,
    source: row.leakSource === "secret-scanning" ? "secret-scanning" : "public-report",
    url: row.leakUrl,
    revokedAt: row.revokedAt!,
    replacement: row.successor ? { keyId: row.successor.publicId, label: row.successor.label } : null,
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
