import "server-only";
import { expiryRecipients, keyRecipients } from "./team-notices";
import type { Db } from "../db";
import type { KeyEnvironment } from "../keys/format";
import { queueMail, utcDay } from "./outbox";

// Notices nobody's request triggers, found by the mail job on each run: keys
// that expire within 7 days and within 1 day, and revoked keys that are still
// being tried. Each is queued with a (kind, subject, period) key, so a notice
// found by several instances, or on many runs, is queued once.

const DAY = 24 * 60 * 60 * 1000;
// Each scan reads at most this many rows a run; what is left is found on the next runs.
const SCAN_LIMIT = 200;

export async function queueDueNotices(client: Db, now: Date): Promise<void> {
  await queueExpiringKeys(client, now);
  await queueRevokedKeysTried(client, now);
}

const stamp = (when: Date) => when.toISOString().slice(0, 16).replace("T", " ");

/**
 * One notice at 7 days and one at 1 day before a key expires, to whoever renews it (expiryRecipients). A key found
 * inside 1 day gets the 1-day one only; a threshold already passed when the key was made is skipped (a key made to
 * live 5 days is not told it has 7 left, nor one made for 12 hours that it has a day).
 */
async function queueExpiringKeys(client: Db, now: Date) {
  const keys = await client.apiKey.findMany({
    // A rotated key (it has a successor) expires at the end of the grace its owner chose: nothing to warn about.
    where: { revokedAt: null, successorId: null, expiresAt: { gt: now, lte: new Date(now.getTime() + 7 * DAY) } },
    orderBy: { expiresAt: "asc" },
    take: SCAN_LIMIT,
    select: {
      publicId: true,
      label: true,
      environment: true,
      expiresAt: true,
      userId: true,
      teamId: true,
      serviceAccountId: true,
      createdAt: true,
    },
  });
  for (const key of keys) {
    if (!key.expiresAt) continue;
    const within = key.expiresAt.getTime() - now.getTime() <= DAY ? "1d" : "7d";
    if (key.expiresAt.getTime() - key.createdAt.getTime() <= (within === "1d" ? DAY : 7 * DAY)) continue;
    for (const recipient of await expiryRecipients(client, key))
      await queueMail(
        client,
        {
          kind: "key_expiring",
          subject: key.publicId,
          period: `${within}${recipient.periodSuffix}`,
          userId: recipient.userId,
          to: recipient.email,
          data: {
            keyId: key.publicId,
            label: key.label,
            environment: key.environment as KeyEnvironment,
            expiresAt: stamp(key.expiresAt),
            within,
          },
        },
        now,
      );
  }
}

/**
 * A revoked key refused in the last day (the request log keeps refusals of a
 * known key): one notice per key per UTC day of the latest attempt.
 */
async function queueRevokedKeysTried(client: Db, now: Date) {
  const attempts = await client.usageEvent.findMany({
    where: { errorCode: "revoked_api_key", createdAt: { gt: new Date(now.getTime() - DAY), lte: now } },
    orderBy: { createdAt: "desc" },
    take: SCAN_LIMIT,
    select: { keyId: true, createdAt: true, ip: true },
  });
  const latest = new Map<string, (typeof attempts)[number]>();
  for (const attempt of attempts) if (!latest.has(attempt.keyId)) latest.set(attempt.keyId, attempt);
  if (latest.size === 0) return;
  const keys = await client.apiKey.findMany({
    where: { id: { in: [...latest.keys()] }, revokedAt: { not: null } },
    select: {
      id: true,
      publicId: true,
      label: true,
      environment: true,
      revokedAt: true,
      userId: true,
      teamId: true,
    },
  });
  for (const key of keys) {
    const attempt = latest.get(key.id);
    if (!attempt || !key.revokedAt || attempt.createdAt <= key.revokedAt) continue;
    for (const recipient of await keyRecipients(client, key))
      await queueMail(
        client,
        {
          kind: "revoked_key_used",
          subject: key.publicId,
          period: `${utcDay(attempt.createdAt)}${recipient.periodSuffix}`,
          userId: recipient.userId,
          to: recipient.email,
          data: {
            keyId: key.publicId,
            label: key.label,
            environment: key.environment as KeyEnvironment,
            lastTriedAt: stamp(attempt.createdAt),
            ip: attempt.ip,
          },
        },
        now,
      );
  }
}
