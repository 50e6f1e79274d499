import "server-only";
import { randomUUID } from "node:crypto";
import type { Db } from "../db";
import { seal } from "../security/encryption";
import type { MailData, MailKind } from "./templates";

// Queuing a message is one INSERT ... ON CONFLICT DO NOTHING on the unique
// (kind, subject, period): two instances that notice the same thing (the same
// key expiring, say) queue it once, and inside a PostgreSQL transaction a
// duplicate does not abort the change it rides with (a unique violation from
// Prisma's create would). Raw SQL, the same on both databases.

type Client = Pick<Db, "$executeRaw">;

export interface QueuedMail<K extends MailKind> {
  kind: K;
  /** What it is about (a user id, a key id, an address): with kind and period, the at-most-once key. */
  subject: string;
  /** "" for once ever; a day ("2026-11-23") for at most once a day; any label that names the occasion. */
  period?: string;
  userId?: string | null;
  to: string;
  data: MailData[K];
  /** A link that carries a token: sealed with ENCRYPTION_KEY in the row, cleared once sent. */
  link?: string;
}

/** Queues a message in the caller's transaction (or on its own). False when the same one was queued before. */
export async function queueMail<K extends MailKind>(client: Client, mail: QueuedMail<K>, now = new Date()) {
  const sealedLink = mail.link ? seal(mail.link, "mail-link") : null;
  const inserted = await client.$executeRaw`INSERT INTO "MailMessage"
      ("id", "kind", "subject", "period", "userId", "recipient", "payload", "sealedLink", "createdAt")
    VALUES (${randomUUID()}, ${mail.kind}, ${mail.subject}, ${mail.period ?? ""}, ${mail.userId ?? null}, ${mail.to},
      ${JSON.stringify(mail.data)}, ${sealedLink}, ${now})
    ON CONFLICT ("kind", "subject", "period") DO NOTHING`;
  return inserted === 1;
}

/** The day of a date in UTC, for "at most once a day" periods. */
export const utcDay = (when: Date) => when.toISOString().slice(0, 10);

/** The hour of a date in UTC, for "at most once an hour" periods. */
export const utcHour = (when: Date) => when.toISOString().slice(0, 13);
