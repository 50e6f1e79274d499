import "server-only";
import type { Actor } from "../audit";
import type { Db } from "../db";
import { queueMail } from "../mail/outbox";
import { describeUserAgent } from "./user-agent";

/**
 * Queues the "your password was changed" notice in the change's transaction.
 * The period is the change's instant, so each change mails once however often
 * the mail job runs, and two changes mail twice.
 */
export function queuePasswordChangedNotice(tx: Pick<Db, "$executeRaw">, actor: Actor, to: string, when: Date) {
  const at = when.toISOString();
  return queueMail(
    tx,
    {
      kind: "password_changed",
      subject: actor.userId,
      period: at,
      userId: actor.userId,
      to,
      data: {
        when: at.slice(0, 16).replace("T", " "),
        ip: actor.ip,
        browser: actor.userAgent ? describeUserAgent(actor.userAgent) : null,
      },
    },
    when,
  );
}
