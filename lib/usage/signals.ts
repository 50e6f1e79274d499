import "server-only";
import { db } from "../db";
import { normalizeScopes, SCOPE_NAMES, type Scope } from "../keys/scopes";
import { AFTER_END_CODES, afterEndCounts } from "./after-end";
import { hourOf, hourStart } from "./event";
import { ownedKeyRows } from "./owned-key";

// What a key's usage says about it, for the key page and the list: use after
// it stopped working, how far a rotation has got, and the scopes it really
// used. Every function takes the team's id and public key ids, and
// resolves them to rows itself, so another team's key reads as nothing.

export interface AfterEndUse {
  /** Every request after the key stopped working (lib/usage/after-end.ts: the hourly counts, which miss none). */
  count: number;
  /** The last one's time as the request log kept it; the start of its hour when the log kept none of that hour. */
  lastAt: Date;
  /** The last one's address, as the request log kept it; null when it kept none of the newest hour with such a use. */
  lastIp: string | null;
}

/** By public key id: how often each key was tried after it stopped working, and the last time and address. */
export async function triedAfterEnd(teamId: string, publicIds: readonly string[]): Promise<Map<string, AfterEndUse>> {
  const keys = await ownedKeyRows(teamId, publicIds);
  const counts = await afterEndCounts(db, [...keys.keys()]);
  const result = new Map<string, AfterEndUse>();
  for (const [keyId, { count, lastHour }] of counts) {
    // The address is the request log's alone, and only from the hour of the last use: an older row would name a
    // time and place that were not the last (the log keeps 120 rows a key and minute, and 30 days).
    const last = await db.usageEvent.findFirst({
      where: { keyId, errorCode: { in: [...AFTER_END_CODES] }, createdAt: { gte: hourStart(lastHour) } },
      orderBy: { createdAt: "desc" },
      select: { ip: true, createdAt: true },
    });
    result.set(keys.get(keyId)!, {
      count,
      lastAt: last?.createdAt ?? hourStart(lastHour),
      lastIp: last?.ip ?? null,
    });
  }
  return result;
}

export interface Sender {
  ip: string;
  userAgent: string | null;
  count: number;
}

export interface RotationProgress {
  /** Requests in the last hour with the old key, and with its replacement. */
  oldRequests: number;
  newRequests: number;
  /** The old key's share of the two, 0 to 1; null with no traffic at all. */
  oldShare: number | null;
  /** Who still sends the old key, most requests first. */
  senders: Sender[];
}

const HOUR_MS = 3_600_000;
const SENDERS_SHOWN = 5;

/** For a key in its rotation's grace period: how much of the last hour's traffic still uses it, and from where. */
export async function rotationProgress(
  teamId: string,
  oldPublicId: string,
  newPublicId: string,
  now = new Date(),
): Promise<RotationProgress | null> {
  const rows = await ownedKeyRows(teamId, [oldPublicId, newPublicId]);
  const rowOf = (publicId: string) => [...rows].find(([, id]) => id === publicId)?.[0];
  const oldRow = rowOf(oldPublicId);
  const newRow = rowOf(newPublicId);
  if (!oldRow || !newRow) return null;
  const since = new Date(now.getTime() - HOUR_MS);
  const count = (keyId: string) => db.usageEvent.count({ where: { keyId, createdAt: { gte: since } } });
  const [oldRequests, newRequests] = await Promise.all([count(oldRow), count(newRow)]);
  const senders = await db.usageEvent.groupBy({
    by: ["ip", "userAgent"],
    where: { keyId: oldRow, createdAt: { gte: since } },
    _count: { _all: true },
    orderBy: { _count: { requestId: "desc" } },
    take: SENDERS_SHOWN,
  });
  const total = oldRequests + newRequests;
  return {
    oldRequests,
    newRequests,
    oldShare: total === 0 ? null : oldRequests / total,
    senders: senders.map((row) => ({ ip: row.ip, userAgent: row.userAgent, count: row._count._all })),
  };
}

const DAY_MS = 24 * HOUR_MS;
export const SCOPE_EVIDENCE_DAYS = 30;

/**
 * The scopes a key's successful requests needed in the last 30 days, in the
 * catalog's order: what it could be narrowed to without breaking what it does.
 * Refused requests (403, 429, ...) say nothing about what the key needs.
 */
export async function usedScopes(
  teamId: string,
  publicId: string,
  scopeOfRoute: ReadonlyMap<string, Scope>,
  now = new Date(),
): Promise<Scope[] | null> {
  const rows = await ownedKeyRows(teamId, [publicId]);
  const keyId = [...rows.keys()][0];
  if (!keyId) return null;
  const used = await db.usageHourly.groupBy({
    by: ["route"],
    where: {
      keyId,
      statusClass: "2xx",
      hour: { gte: hourOf(new Date(now.getTime() - SCOPE_EVIDENCE_DAYS * DAY_MS)) },
    },
  });
  return normalizeScopes(used.flatMap((row) => (scopeOfRoute.has(row.route) ? [scopeOfRoute.get(row.route)!] : [])));
}

export interface KeySignals {
  afterEnd: AfterEndUse | null;
  /** For a key in its rotation's grace period. */
  rotation: RotationProgress | null;
  /** Scopes narrower than the key's that its last 30 days needed; null when there is nothing to suggest. */
  suggestedScopes: Scope[] | null;
}

interface SignalKey {
  id: string;
  status: string;
  successor: { id: string } | null;
  restrictions: { scopes: "all" | readonly Scope[] };
}

/**
 * Everything the key page shows from usage beside its charts, in one call.
 * `scopeOfRoute` is the scope each route name needs (the public API's registry
 * knows it: `routeScopes()` in lib/public-api/routes.ts).
 */
export async function keySignals(
  teamId: string,
  key: SignalKey,
  scopeOfRoute: ReadonlyMap<string, Scope>,
  now = new Date(),
): Promise<KeySignals> {
  const usable = key.status === "active" || key.status === "expiring";
  const [afterEnd, rotation, used] = await Promise.all([
    triedAfterEnd(teamId, [key.id]).then((found) => found.get(key.id) ?? null),
    key.status === "expiring" && key.successor ? rotationProgress(teamId, key.id, key.successor.id, now) : null,
    usable ? usedScopes(teamId, key.id, scopeOfRoute, now) : null,
  ]);
  const held = key.restrictions.scopes === "all" ? null : key.restrictions.scopes;
  const narrower =
    used !== null &&
    used.length > 0 &&
    (held === null
      ? used.length < SCOPE_NAMES.length
      : used.length < held.length && used.every((s) => held.includes(s)));
  return { afterEnd, rotation, suggestedScopes: narrower ? used : null };
}

export interface ListSignals {
  afterEnd: Map<string, AfterEndUse>;
  rotation: Map<string, RotationProgress>;
}

/** For the key list: use after the end for every key shown, and rotation progress for those in a grace period. */
export async function listSignals(
  teamId: string,
  keys: readonly { id: string; status: string; successor: { id: string } | null }[],
  now = new Date(),
): Promise<ListSignals> {
  const rotating = keys.filter((key) => key.status === "expiring" && key.successor);
  const [afterEnd, progress] = await Promise.all([
    triedAfterEnd(
      teamId,
      keys.map((key) => key.id),
    ),
    Promise.all(rotating.map((key) => rotationProgress(teamId, key.id, key.successor!.id, now))),
  ]);
  const rotation = new Map<string, RotationProgress>();
  rotating.forEach((key, index) => {
    const found = progress[index];
    if (found) rotation.set(key.id, found);
  });
  return { afterEnd, rotation };
}
