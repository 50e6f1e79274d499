import "server-only";
import { recordTeamAudit } from "../audit";
import { db } from "../db";
import { log } from "../log";
import { queueMail, utcHour } from "../mail/outbox";
import { keyRecipients } from "../mail/team-notices";
import type { FoundKey } from "./verify";

// Decoy (honeytoken) keys: they look like any other key and never work. The
// gate answers one exactly as it answers an unknown key, and this records the
// alert afterwards, off the request path, so a decoy costs its caller no more
// time than an unknown key and tells them nothing. Place one where a real key
// would sit (a config file, a CI secret) and learn the moment that place leaks.
//
// One alert per decoy per hour, counted: the first use in an hour writes an
// activity entry and queues the owner's email; later uses in that hour (a
// flood, a replayed or repeated secret-scanning report) only add to the
// entry's count, so they can neither fill the owner's log nor their inbox.

export interface DecoyUse {
  ip: string | null;
  userAgent: string | null;
  /** The public API route called, or what reported the key (a secret-scanning report, the report form). */
  route: string;
  /** Where the key was found, when a report said. */
  url?: string | null;
}

export interface QueuedUse {
  key: FoundKey;
  /** The first of the uses this stands for: its address, browser and route are the ones recorded. */
  use: DecoyUse;
  at: Date;
  /** How many uses of this decoy, in the hour of `at`, this stands for. */
  count: number;
  /**
   * The distinct addresses among them, up to MAX_ADDRESSES: the activity entry
   * names the first use's, so a caller who tried the decoy from a throwaway
   * address first would otherwise hide the rest; the log names them all.
   */
  addresses?: ReadonlySet<string>;
}

const MAX_ADDRESSES = 20;

const HOUR_MS = 60 * 60 * 1000;
const hourOf = (at: Date) => Math.floor(at.getTime() / HOUR_MS);

type Tx = Parameters<Parameters<typeof db.$transaction>[0]>[0];

/**
 * Records a batch of uses in one transaction: one activity entry per decoy
 * and hour, created by the hour's first use and counted up by the others,
 * and an email at most once an hour per decoy. Called well after the
 * answers were sent; a failure is logged, never thrown at anyone.
 */
export async function recordDecoyUses(uses: readonly QueuedUse[]): Promise<void> {
  const hours = byDecoyAndHour(uses);
  if (hours.length === 0) return;
  await db.$transaction(async (tx) => {
    // Each hour's entry takes its team's row: teams in one order, so two batches never wait on each other.
    const keys = await tx.apiKey.findMany({
      where: { id: { in: hours.map((hour) => hour.key.id) } },
      select: { id: true, teamId: true },
    });
    const teamOf = new Map(keys.map((key) => [key.id, key.teamId]));
    const team = (hour: QueuedUse) => teamOf.get(hour.key.id) ?? "";
    const ordered = hours.toSorted((a, b) => (team(a) < team(b) ? -1 : team(a) > team(b) ? 1 : 0));
    for (const hour of ordered) await recordHour(tx, hour);
  });
  for (const { key, use, count, addresses } of hours) {
    log.warn("key.decoy_used", {
      key_id: key.publicId,
      user_id: key.userId,
      ip: use.ip,
      ips: [...(addresses ?? [])],
      route: use.route,
      count,
    });
  }
}

/** The addresses of two groups of uses together, up to MAX_ADDRESSES. */
function withAddresses(addresses: ReadonlySet<string> | undefined, more: Iterable<string>): Set<string> {
  const all = new Set(addresses);
  for (const address of more) if (all.size < MAX_ADDRESSES) all.add(address);
  return all;
}

/** The uses added up per decoy and hour, the earliest of each kept. */
function byDecoyAndHour(uses: readonly QueuedUse[]): QueuedUse[] {
  const hours = new Map<string, QueuedUse>();
  for (const queued of uses) {
    const id = `${queued.key.id} ${hourOf(queued.at)}`;
    const seen = hours.get(id);
    const own = queued.addresses ?? (queued.use.ip ? [queued.use.ip] : []);
    if (!seen) {
      hours.set(id, { ...queued, addresses: withAddresses(undefined, own) });
      continue;
    }
    const first = queued.at < seen.at ? queued : seen;
    hours.set(id, { ...first, count: seen.count + queued.count, addresses: withAddresses(seen.addresses, own) });
  }
  return [...hours.values()];
}

async function recordHour(tx: Tx, { key, use, at, count }: QueuedUse): Promise<void> {
  const row = await tx.apiKey.findUnique({
    where: { id: key.id },
    select: { label: true, environment: true, teamId: true },
  });
  if (!row) return;
  // A write to the team's row first (recordTeamAudit takes it too): on
  // PostgreSQL two instances recording this decoy's hour take turns, and the
  // second, reading after the first committed, finds its entry; SQLite has
  // one writer.
  await tx.team.update({ where: { id: row.teamId }, data: { auditSeq: { increment: 0 } } });
  const start = new Date(hourOf(at) * HOUR_MS);
  const entry = await tx.teamAuditEvent.findFirst({
    where: {
      teamId: row.teamId,
      keyId: key.publicId,
      action: "key.decoy_used",
      createdAt: { gte: start, lt: new Date(start.getTime() + HOUR_MS) },
    },
    select: { id: true },
  });
  if (entry) {
    // The entry stays as chained; only its tally, outside the hash, grows.
    await tx.teamAuditEvent.update({ where: { id: entry.id }, data: { count: { increment: count } } });
    return;
  }
  // Keyport itself saw it: nobody of the team acted. The maker is who it is recorded for.
  await recordTeamAudit(
    tx,
    row.teamId,
    { userId: key.userId, ip: use.ip, userAgent: use.userAgent, kind: "keyport" },
    "key.decoy_used",
    key.publicId,
    { route: use.route, ...(use.url ? { url: use.url } : {}) },
    { at, count },
  );
  // The maker, and in a team the admins and owners: an alert must reach someone after the maker has left.
  for (const recipient of await keyRecipients(tx, { userId: key.userId, teamId: row.teamId })) {
    await queueMail(
      tx,
      {
        kind: "decoy_key_used",
        subject: key.publicId,
        period: `${utcHour(at)}${recipient.periodSuffix}`,
        userId: recipient.userId,
        to: recipient.email,
        data: {
          keyId: key.publicId,
          label: row.label,
          environment: row.environment === "prod" ? "prod" : "dev",
          route: use.route,
          ip: use.ip,
          when: at.toISOString().slice(0, 16).replace("T", " "),
        },
      },
      at,
    );
  }
}

/** One use, recorded now (a report's decoy: the report is not an API answer to hide). */
export function recordDecoyUse(key: FoundKey, use: DecoyUse, at = new Date()): Promise<void> {
  return recordDecoyUses([{ key, use, at, count: 1 }]);
}

// The gate's uses wait in memory and are written in batches half a second
// later, not on the request's own turn of the event loop: the write is then
// tied to no single request, so neither a decoy's answer nor the request
// after it takes measurably longer than an unknown key's. Uses of one decoy
// in one hour wait as one, counted, so a flood holds one slot and loses no
// count. Past QUEUE_LIMIT waiting decoy-hours, more are counted and logged,
// not written (an instance stopping loses what is still waiting).
const FLUSH_DELAY_MS = 500;
const BATCH_SIZE = 200;
const QUEUE_LIMIT = 10_000;
export interface DecoyAlerts {
  /** Queues a use seen by the gate; the gate answers at once, as it would an unknown key. */
  alert(key: FoundKey, use: DecoyUse): void;
}

/** The instance's queue of decoy uses (the runtime holds one: lib/runtime/create-runtime.ts). */
export function createDecoyAlerts(): DecoyAlerts {
  const queue = new Map<string, QueuedUse & { addresses: Set<string> }>();
  let dropped = 0;
  let timer: NodeJS.Timeout | undefined;
  let flushing = false;

  function schedule() {
    if (timer) return;
    timer = setTimeout(() => void flush(), FLUSH_DELAY_MS);
    timer.unref();
  }

  /** Up to BATCH_SIZE waiting decoy-hours, taken off the queue: uses that come meanwhile start new ones. */
  function takeBatch(): QueuedUse[] {
    const batch: QueuedUse[] = [];
    for (const [id, queued] of queue) {
      if (batch.length === BATCH_SIZE) break;
      queue.delete(id);
      batch.push(queued);
    }
    return batch;
  }

  async function flush() {
    timer = undefined;
    if (flushing) return schedule();
    flushing = true;
    try {
      while (queue.size > 0) await recordDecoyUses(takeBatch());
    } catch (error) {
      log.error("key.decoy_alert_failed", { error: String((error as Error)?.message) });
    } finally {
      flushing = false;
      if (dropped > 0) {
        log.warn("key.decoy_alerts_dropped", { count: dropped });
        dropped = 0;
      }
    }
  }

  return {
    alert(key, use) {
      const at = new Date();
      const id = `${key.id} ${hourOf(at)}`;
      const waiting = queue.get(id);
      if (waiting) {
        waiting.count += 1;
        if (use.ip && waiting.addresses.size < MAX_ADDRESSES) waiting.addresses.add(use.ip);
        return;
      }
      if (queue.size >= QUEUE_LIMIT) {
        dropped += 1;
        return;
      }
      queue.set(id, { key, use, at, count: 1, addresses: new Set(use.ip ? [use.ip] : []) });
      schedule();
    },
  };
}
