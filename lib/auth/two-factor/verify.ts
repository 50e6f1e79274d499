import "server-only";
import { createHash } from "node:crypto";
import { db } from "../../db";
import { open } from "../../security/encryption";
import { matchingStep } from "./totp";

// Checks a second factor: a TOTP code from the app, or one of the recovery
// codes. Both are single use. A TOTP code's step is recorded with one
// conditional UPDATE (only if it is later than the last step accepted), so
// two requests racing with the same code cannot both pass; a recovery code
// is spent the same way (usedAt set only where it was null).

export type SecondFactor = "totp" | "recovery_code";

/** Recovery codes: 16 base32 characters (80 bits) in groups of four; case and dashes do not matter. */
export function normaliseRecoveryCode(input: string): string | null {
  const compact = input.replace(/[\s-]/g, "").toUpperCase();
  return /^[A-Z2-7]{16}$/.test(compact) ? compact : null;
}

export const recoveryCodeDigest = (code: string) => createHash("sha256").update(code, "utf8").digest("hex");

export async function twoFactorEnabled(userId: string): Promise<boolean> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { totpEnabledAt: true } });
  return Boolean(user?.totpEnabledAt);
}

/** Which factor the input proved, or null. Only for a user whose two-factor sign-in is on. */
export async function verifySecondFactor(
  userId: string,
  input: string,
  now = new Date(),
): Promise<SecondFactor | null> {
  const trimmed = input.trim();
  if (/^\d{3} ?\d{3}$/.test(trimmed))
    return (await spendTotpCode(userId, trimmed.replace(" ", ""), now)) ? "totp" : null;
  const recovery = normaliseRecoveryCode(trimmed);
  return recovery && (await spendRecoveryCode(userId, recovery, now)) ? "recovery_code" : null;
}

async function spendTotpCode(userId: string, code: string, now: Date): Promise<boolean> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { totpSecret: true, totpEnabledAt: true, totpLastStep: true },
  });
  if (!user?.totpSecret || !user.totpEnabledAt) return false;
  const secret = open(user.totpSecret, "totp-secret");
  if (!secret) return false;
  const step = matchingStep(secret, code, now.getTime());
  if (step === null || (user.totpLastStep !== null && step <= user.totpLastStep)) return false;
  const spent = await db.user.updateMany({
    where: { id: userId, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] },
    data: { totpLastStep: step },
  });
  return spent.count === 1;
}

async function spendRecoveryCode(userId: string, code: string, now: Date): Promise<boolean> {
  const spent = await db.recoveryCode.updateMany({
    where: { userId, digest: recoveryCodeDigest(code), usedAt: null },
    data: { usedAt: now },
  });
  return spent.count === 1;
}
