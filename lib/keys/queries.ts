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

/** One page of the team's keys, newest first. Always scoped to the team. */
export async function listKeys(teamId: string, filter: KeyFilter = {}, now = new Date()): Promise<Page<KeyView>> {
  const where = {
    teamId,
    ...(filter.environment ? { environment: filter.environment } : {}),
    ...(filter.status ? statusWhere(filter.status, now) : filter.showInactive ? {} : statusWhere("usable", now)),
  };
  const total = await db.apiKey.count({ where });
  const { page, pageCount, skip, take } = pageOf(total, filter.page, KEYS_PAGE_SIZE);
  const rows = await db.apiKey.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip,
    take,
    select: keyViewSelect,
  });
  return { items: rows.map((row) => toKeyView(row, now)), page, pageCount, total };
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
  /** The account whose chain holds it: who made the change (or, for the operator and reports, whose key it was). */
  actorEmail: string | null;
}

/**
 * A team's activity, newest first, optionally for one of its keys: every change
 * to the team's keys, whoever made it (each row stays in its author's chain
 * until the team chain lands), and, in a personal team, the account's own
 * sign-ins and settings as before.
 */
export async function listActivity(
  team: { id: string; personalOfId: string | null },
  options: { keyId?: string | undefined; page?: number | undefined; pageSize?: number | undefined } = {},
) {
  const keyIds = options.keyId
    ? (await db.apiKey.count({ where: { teamId: team.id, publicId: options.keyId } })) > 0
      ? [options.keyId]
      : []
    : (await db.apiKey.findMany({ where: { teamId: team.id }, select: { publicId: true } })).map((k) => k.publicId);
  const where = {
    OR: [
      { keyId: { in: keyIds } },
      ...(team.personalOfId && !options.keyId ? [{ userId: team.personalOfId, keyId: null }] : []),
    ],
  };
  const total = await db.auditEvent.count({ where });
  const { page, pageCount, skip, take } = pageOf(total, options.page, options.pageSize ?? ACTIVITY_PAGE_SIZE);
  const rows = await db.auditEvent.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip,
    take,
    include: { user: { select: { email: true } } },
  });
  const items: ActivityEntry[] = rows.map((row) => ({
    id: row.id,
    action: row.action,
    keyId: row.keyId,
    ip: row.ip,
    userAgent: row.userAgent,
    details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null,
    createdAt: row.createdAt,
    count: row.count,
    actorEmail: row.user.email,
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
  const rows = await db.auditEvent.findMany({
    where: { action: "key.decoy_used", keyId: { in: keyIds } },
    orderBy: { seq: "desc" },
    take: 1_000,
    select: { keyId: true, createdAt: true, ip: true, count: true },
  });
  for (const row of rows) {
    const seen = uses.get(row.keyId!);
    if (seen) seen.count += row.count;
    else uses.set(row.keyId!, { count: row.count, lastAt: row.createdAt, lastIp: row.ip });
  }
  return uses;
}
