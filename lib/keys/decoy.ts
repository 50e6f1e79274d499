import "server-only";
import { recordAudit } from "../audit";
import { db } from "../db";
import { log } from "../log";
import { queueMail, utcHour } from "../mail/outbox";
import type { FoundKey } from "./verify";

// Decoy (honeytoken) keys: they look like any other key and never work. The
// gate answers one exactly as it answers an unknown key, and this records the
// alert afterwards, off the request path, so a decoy costs its caller no more
// time than an unknown key and tells them nothing. Place one where a real key
// would sit (a config file, a CI secret) and learn the moment that place leaks.

export interface DecoyUse {
  ip: string | null;
  userAgent: string | null;
  /** The public API route called, or what reported the key (a secret-scanning report, the report form). */
  route: string;
  /** Where the key was found, when a report said. */
  url?: string | null;
}

/**
 * One activity entry per use, and an email to the owner at most once an hour
 * per decoy, for a batch of uses in one transaction. Called well after the
 * answers were sent; a failure is logged, never thrown at anyone.
 */
export async function recordDecoyUses(uses: readonly QueuedUse[]): Promise<void> {
  if (uses.length === 0) return;
  await db.$transaction(async (tx) => {
    for (const { key, use, at } of uses) {
      const row = await tx.apiKey.findUnique({
        where: { id: key.id },
        select: { label: true, environment: true, user: { select: { email: true } } },
      });
      if (!row) continue; // deleted with its account since
      await recordAudit(
        tx,
        { userId: key.userId, ip: use.ip, userAgent: use.userAgent },
        "key.decoy_used",
        key.publicId,
        {
          route: use.route,
          ...(use.url ? { url: use.url } : {}),
        },
      );
      await queueMail(
        tx,
        {
          kind: "decoy_key_used",
          subject: key.publicId,
          period: utcHour(at),
          userId: key.userId,
          to: row.user.email,
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
  });
  for (const { key, use } of uses) {
    log.warn("key.decoy_used", { key_id: key.publicId, user_id: key.userId, ip: use.ip, route: use.route });
  }
}

/** One use, recorded now (a report's decoy: the report is not an API answer to hide). */
export function recordDecoyUse(key: FoundKey, use: DecoyUse, at = new Date()): Promise<void> {
  return recordDecoyUses([{ key, use, at }]);
}

export interface QueuedUse {
  key: FoundKey;
  use: DecoyUse;
  at: Date;
}

// The gate's uses wait in memory and are written in batches half a second
// later, not on the request's own turn of the event loop: the write is then
// tied to no single request, so neither a decoy's answer nor the request
// after it takes measurably longer than an unknown key's. A flood of decoy
// requests is bounded: past QUEUE_LIMIT waiting uses, more are counted and
// logged, not written (an instance stopping loses what is still waiting).
const FLUSH_DELAY_MS = 500;
const BATCH_SIZE = 200;
const QUEUE_LIMIT = 10_000;

export interface DecoyAlerts {
  /** Queues a use seen by the gate; the gate answers at once, as it would an unknown key. */
  alert(key: FoundKey, use: DecoyUse): void;
}

/** The instance's queue of decoy uses (the runtime holds one: lib/runtime/create-runtime.ts). */
export function createDecoyAlerts(): DecoyAlerts {
  const queue: QueuedUse[] = [];
  let dropped = 0;
  let timer: NodeJS.Timeout | undefined;
  let flushing = false;

  function schedule() {
    if (timer) return;
    timer = setTimeout(() => void flush(), FLUSH_DELAY_MS);
    timer.unref();
  }

  async function flush() {
    timer = undefined;
    if (flushing) return schedule();
    flushing = true;
    try {
      while (queue.length > 0) await recordDecoyUses(queue.splice(0, BATCH_SIZE));
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
      if (queue.length >= QUEUE_LIMIT) {
        dropped += 1;
        return;
      }
      queue.push({ key, use, at: new Date() });
      schedule();
    },
  };
}
