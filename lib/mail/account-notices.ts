import "server-only";
import type { Db } from "../db";
import { describeUserAgent } from "../auth/user-agent";
import { queueMail } from "./outbox";
import type { MailData } from "./templates";

// Notices queued in the transaction of the change they tell about, so the
// change and its notice commit together or not at all.

type Tx = Pick<Db, "$executeRaw" | "user" | "auditEvent">;

const stamp = (when: Date) => when.toISOString().slice(0, 16).replace("T", " ");

async function emailOf(tx: Tx, userId: string) {
  return (await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } })).email;
}

export type KeyChange = MailData["key_changed"]["change"];

/** A production key was created, rotated, revoked or reported leaked. Development keys send nothing. */
export async function queueKeyChanged(
  tx: Tx,
  userId: string,
  key: { publicId: string; label: string; environment: string },
  change: KeyChange,
  now: Date,
) {
  if (key.environment !== "prod") return;
  await queueMail(
    tx,
    {
      kind: "key_changed",
      subject: key.publicId,
      period: change,
      userId,
      to: await emailOf(tx, userId),
      data: { keyId: key.publicId, label: key.label, environment: "prod", change, when: stamp(now) },
    },
    now,
  );
}

/**
 * Call before the new sign-in's own audit row is written. An account's first
 * sign-in (just signed up) sends nothing; later, a sign-in whose IP or browser
 * no earlier sign-in of this account used is told to its owner.
 */
export async function queueNewSignIn(
  tx: Tx,
  session: { id: string; userId: string; ip: string | null; userAgent: string | null },
  now: Date,
) {
  const where = { userId: session.userId, action: "auth.sign_in" };
  // One after another: a transaction's queries run on one connection anyway.
  if (!(await tx.auditEvent.findFirst({ where, select: { id: true } }))) return;
  const sameIp = await tx.auditEvent.findFirst({ where: { ...where, ip: session.ip }, select: { id: true } });
  const sameBrowser = await tx.auditEvent.findFirst({
    where: { ...where, userAgent: session.userAgent },
    select: { id: true },
  });
  if (sameIp && sameBrowser) return;
  await queueMail(
    tx,
    {
      kind: "new_sign_in",
      subject: session.userId,
      period: session.id,
      userId: session.userId,
      to: await emailOf(tx, session.userId),
      data: { when: stamp(now), ip: session.ip, browser: describeUserAgent(session.userAgent) },
    },
    now,
  );
}

/**
 * A session answered the "confirm it's you" dialog wrongly five times and was
 * signed out: whoever held it may have stolen it, so its owner is told.
 */
export async function queueStepUpFailed(
  tx: Tx,
  session: { id: string; userId: string },
  from: { ip: string | null; userAgent: string | null },
  now: Date,
) {
  await queueMail(
    tx,
    {
      kind: "step_up_failed",
      subject: session.id,
      userId: session.userId,
      to: await emailOf(tx, session.userId),
      data: { when: stamp(now), ip: from.ip, browser: describeUserAgent(from.userAgent) },
    },
    now,
  );
}

/**
 * A key of either environment was reported leaked by a report (GitHub secret
 * scanning, the public form) and revoked: its owner is told, once per key.
 */
export async function queueKeyReportedLeaked(
  tx: Tx,
  userId: string,
  key: { publicId: string; label: string; environment: string },
  report: { source: string; url: string | null },
  now: Date,
  replacement: { keyId: string; label: string } | null = null,
) {
  await queueMail(
    tx,
    {
      kind: "key_reported_leaked",
      subject: key.publicId,
      userId,
      to: await emailOf(tx, userId),
      data: {
        keyId: key.publicId,
        label: key.label,
        environment: key.environment === "prod" ? "prod" : "dev",
        source: report.source === "secret-scanning" ? "secret-scanning" : "public-report",
        url: report.url,
        when: stamp(now),
        replacement,
      },
    },
    now,
  );
}
