import "server-only";
import type { Db } from "../database-client";

// The queues every instance shares, read from the database when Prometheus
// scrapes (not counted in process: an instance sees only its own part). Every
// instance reports the same figures; an alert takes their max().

export interface Backlog {
  mail: {
    /** Waiting for a mail job to claim them (new, or put back after the SMTP server could not be reached). */
    queued: number;
    /** Given up on: the SMTP server refused them. */
    failed: number;
    /** Seconds since the oldest waiting message was queued; 0 when none waits. */
    oldestQueuedSeconds: number;
  };
  generations: { queued: number; running: number; failed: number };
}

export async function readBacklog(db: Db, now = new Date()): Promise<Backlog> {
  const [queued, failed, oldest, generations] = await Promise.all([
    db.mailMessage.count({ where: { claimedAt: null, sentAt: null } }),
    db.mailMessage.count({ where: { claimedAt: { not: null }, sentAt: null, error: { not: null } } }),
    db.mailMessage.findFirst({
      where: { claimedAt: null, sentAt: null },
      orderBy: { createdAt: "asc" },
      select: { createdAt: true },
    }),
    db.generation.groupBy({
      by: ["status"],
      where: { status: { in: ["queued", "running", "failed"] } },
      _count: { _all: true },
    }),
  ]);
  const byStatus = new Map(generations.map((row) => [row.status, row._count._all]));
  return {
    mail: {
      queued,
      failed,
      oldestQueuedSeconds: oldest ? Math.max(0, (now.getTime() - oldest.createdAt.getTime()) / 1000) : 0,
    },
    generations: {
      queued: byStatus.get("queued") ?? 0,
      running: byStatus.get("running") ?? 0,
      failed: byStatus.get("failed") ?? 0,
    },
  };
}
