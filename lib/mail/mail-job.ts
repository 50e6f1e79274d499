import "server-only";
import { randomUUID } from "node:crypto";
import { db, type Db } from "../db";
import { getEnv } from "../env";
import { log } from "../log";
import { open } from "../security/encryption";
import { queueDueNotices } from "./notice-scans";
import { renderMail, type MailData, type MailKind } from "./templates";
import { deliver, neverReachedServer } from "./transport";

// The mail job: every instance runs one (lib/mail/start-mail-job.ts),
// independent of the generation worker. Each run first queues the notices
// that are due (keys about to expire, revoked keys still tried), then sends
// what is queued. A row is claimed (claimedAt set where it was null, one
// UPDATE) before its message is sent, so however many instances run the job,
// each message goes out at most once. A send that never reached the SMTP
// server is released to be tried again; any other failure is recorded and
// not retried, because the server may have taken the message.

const BATCH = 50;

export interface MailJobResult {
  sent: number;
  failed: number;
}

export async function runMailJob(now = new Date(), client: Db = db, instance = INSTANCE_ID): Promise<MailJobResult> {
  await queueDueNotices(client, now);
  const result: MailJobResult = { sent: 0, failed: 0 };
  const queued = await client.mailMessage.findMany({
    where: { claimedAt: null },
    orderBy: { createdAt: "asc" },
    take: BATCH,
    select: { id: true },
  });
  for (const { id } of queued) {
    const claimed = await client.mailMessage.updateMany({
      where: { id, claimedAt: null },
      data: { claimedAt: new Date(), claimedBy: instance },
    });
    if (claimed.count !== 1) continue; // another instance has it
    const outcome = await sendClaimed(client, id);
    result[outcome]++;
  }
  return result;
}

async function sendClaimed(client: Db, id: string): Promise<"sent" | "failed"> {
  const row = await client.mailMessage.findUniqueOrThrow({ where: { id } });
  try {
    // Inside the try: a link that no longer opens (ENCRYPTION_KEY changed) fails this one message, not the run.
    const link = row.sealedLink ? open(row.sealedLink, "mail-link") : null;
    const kind = row.kind as MailKind;
    const data = JSON.parse(row.payload) as MailData[MailKind];
    const rendered = renderMail(kind, data, getEnv().PUBLIC_BASE_URL, link);
    await deliver({ to: row.recipient, ...rendered, link: link ?? undefined });
    await client.mailMessage.update({ where: { id }, data: { sentAt: new Date(), sealedLink: null, error: null } });
    log.info("mail.sent", { mail_id: id, kind: row.kind, user_id: row.userId });
    return "sent";
  } catch (error) {
    const retry = neverReachedServer(error);
    // The error's code only: an SMTP error's message can quote the recipient and the server's words.
    const code = (error as { code?: unknown } | null)?.code;
    const summary = typeof code === "string" ? code : error instanceof Error ? error.name : "unknown";
    await client.mailMessage.update({
      where: { id },
      data: retry ? { claimedAt: null, claimedBy: null, error: summary } : { error: summary, sealedLink: null },
    });
    log.warn("mail.send_failed", { mail_id: id, kind: row.kind, error: summary, will_retry: retry });
    return "failed";
  }
}

const INSTANCE_ID = `mail-${randomUUID()}`;
