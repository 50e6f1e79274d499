import "server-only";
import { randomBytes } from "node:crypto";
import QRCode from "qrcode";
import { recordAudit, type Actor } from "../../audit";
import { db } from "../../db";
import { queueMail } from "../../mail/outbox";
import { open, seal } from "../../security/encryption";
import { matchingStep, newTotpSecret, totpUri } from "./totp";
import { recoveryCodeDigest } from "./verify";

// Turning two-factor sign-in on and off. Enrolment stores a new secret
// (sealed) that counts for nothing until a code from it is confirmed; only
// then is two-factor on, and ten recovery codes are made and shown once.

export const RECOVERY_CODE_COUNT = 10;
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** 16 base32 characters from the CSPRNG (80 bits), shown as four groups of four. */
function newRecoveryCode(): string {
  const bytes = randomBytes(16);
  const code = Array.from(bytes, (byte) => BASE32[byte % 32]).join("");
  return code.match(/.{4}/g)!.join("-");
}

export interface EnrolmentView {
  enabled: boolean;
  /** While setting up: what the authenticator app needs. */
  pending: { secret: string; qrDataUrl: string } | null;
  recoveryCodesLeft: number;
}

export async function twoFactorView(userId: string, email: string): Promise<EnrolmentView> {
  const user = await db.user.findUniqueOrThrow({
    where: { id: userId },
    select: {
      totpSecret: true,
      totpEnabledAt: true,
      _count: { select: { recoveryCodes: { where: { usedAt: null } } } },
    },
  });
  const secret = !user.totpEnabledAt && user.totpSecret ? open(user.totpSecret, "totp-secret") : null;
  return {
    enabled: Boolean(user.totpEnabledAt),
    pending: secret
      ? { secret, qrDataUrl: await QRCode.toDataURL(totpUri(secret, email), { margin: 2, width: 240 }) }
      : null,
    recoveryCodesLeft: user._count.recoveryCodes,
  };
}

type Tx = Parameters<Parameters<typeof db.$transaction>[0]>[0];

/** The person's recovery codes from now on: these, stored as digests; every earlier one is gone. */
async function storeRecoveryCodes(tx: Tx, userId: string, codes: string[]) {
  await tx.recoveryCode.deleteMany({ where: { userId } });
  await tx.recoveryCode.createMany({
    data: codes.map((recovery) => ({ userId, digest: recoveryCodeDigest(recovery.replace(/-/g, "")) })),
  });
}

const TWO_FACTOR_CHANGES = {
  enabled: "auth.two_factor_enabled",
  disabled: "auth.two_factor_disabled",
  recovery_codes_replaced: "auth.recovery_codes_replaced",
} as const;

/** The audited change, and the mail that tells the account's owner. */
async function recordTwoFactorChange(
  tx: Tx,
  actor: Actor,
  email: string,
  change: keyof typeof TWO_FACTOR_CHANGES,
  now: Date,
) {
  await recordAudit(tx, actor, TWO_FACTOR_CHANGES[change], null);
  await queueMail(tx, {
    kind: "two_factor_changed",
    subject: actor.userId,
    period: `${change}-${now.toISOString()}`,
    userId: actor.userId,
    to: email,
    data: { change, when: now.toISOString().slice(0, 16).replace("T", " ") },
  });
}

/** Starts (or restarts) setting up: a new sealed secret, not yet in force. False when two-factor is already on. */
export async function startEnrolment(userId: string): Promise<boolean> {
  const started = await db.user.updateMany({
    where: { id: userId, totpEnabledAt: null },
    data: { totpSecret: seal(newTotpSecret(), "totp-secret"), totpLastStep: null },
  });
  return started.count === 1;
}

/** Confirms setup with a code from the app: two-factor is on, and the recovery codes are returned once. */
export async function confirmEnrolment(actor: Actor, email: string, code: string, now = new Date()) {
  const user = await db.user.findUniqueOrThrow({
    where: { id: actor.userId },
    select: { totpSecret: true, totpEnabledAt: true },
  });
  if (user.totpEnabledAt || !user.totpSecret) return null;
  const secret = open(user.totpSecret, "totp-secret");
  const step = secret ? matchingStep(secret, code.replace(/\s/g, ""), now.getTime()) : null;
  if (step === null) return null;
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const enabled = await db.$transaction(async (tx) => {
    // Only the secret that was shown: a second setup started meanwhile wins nothing here.
    const on = await tx.user.updateMany({
      where: { id: actor.userId, totpEnabledAt: null, totpSecret: user.totpSecret },
      data: { totpEnabledAt: now, totpLastStep: step },
    });
    if (on.count !== 1) return false;
    await storeRecoveryCodes(tx, actor.userId, codes);
    await recordTwoFactorChange(tx, actor, email, "enabled", now);
    return true;
  });
  return enabled ? codes : null;
}

/** Recovery codes this few or fewer left: the account pages ask the person to make new ones. */
export const RECOVERY_CODES_LOW = 3;

/**
 * Replaces the recovery codes with ten new ones, returned once; every old one,
 * used or not, stops working. Null when two-factor is off. The caller has
 * checked a fresh sign-in (which, with two-factor on, took a code).
 */
export async function replaceRecoveryCodes(actor: Actor, email: string, now = new Date()) {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const replaced = await db.$transaction(async (tx) => {
    // Written first: on PostgreSQL the row lock makes two replacements take turns, so one set of codes is left.
    const on = await tx.user.updateMany({
      where: { id: actor.userId, totpEnabledAt: { not: null } },
      data: { updatedAt: now },
    });
    if (on.count !== 1) return false;
    await storeRecoveryCodes(tx, actor.userId, codes);
    await recordTwoFactorChange(tx, actor, email, "recovery_codes_replaced", now);
    return true;
  });
  return replaced ? codes : null;
}

/** Turns two-factor off; the caller has checked a current code or a recovery code (proveIdentity). */
export async function disableTwoFactor(actor: Actor, email: string, now = new Date()) {
  await db.$transaction(async (tx) => {
    await tx.user.update({
      where: { id: actor.userId },
      data: { totpSecret: null, totpEnabledAt: null, totpLastStep: null },
    });
    await tx.recoveryCode.deleteMany({ where: { userId: actor.userId } });
    // Sign-ins waiting for a code were started under the old setting: they end.
    await tx.pendingSignIn.deleteMany({ where: { userId: actor.userId } });
    await recordTwoFactorChange(tx, actor, email, "disabled", now);
  });
}
