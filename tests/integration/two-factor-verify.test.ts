import { describe, expect, it } from "vitest";
import { createAccount } from "@/lib/auth/accounts";
import { codeFor, newTotpSecret } from "@/lib/auth/two-factor/totp";
import { recoveryCodeDigest, verifySecondFactor } from "@/lib/auth/two-factor/verify";
import { db } from "@/lib/db";
import { open, seal } from "@/lib/security/encryption";

// The second-factor check the sign-in step and the fresh-sign-in dialog share:
// a code works once, racing requests cannot both spend it, and the secret is
// never stored in the clear.

let counter = 0;
const STEP = 30_000;

async function userWithTotp(enabled = true) {
  const result = await createAccount(`totp-${Date.now()}-${counter++}@example.com`, "a long enough password");
  if (!result.ok) throw new Error(result.error);
  const secret = newTotpSecret();
  await db.user.update({
    where: { id: result.userId },
    data: { totpSecret: seal(secret, "totp-secret"), totpEnabledAt: enabled ? new Date() : null },
  });
  return { userId: result.userId, secret };
}

describe("the second factor", () => {
  it("accepts the current code once, and not again", async () => {
    const { userId, secret } = await userWithTotp();
    const now = new Date();
    const code = codeFor(secret, now.getTime());
    expect(await verifySecondFactor(userId, code, now)).toBe("totp");
    expect(await verifySecondFactor(userId, code, now)).toBeNull();
    // Nor a code from an earlier step, still inside the drift window.
    expect(await verifySecondFactor(userId, codeFor(secret, now.getTime() - STEP), now)).toBeNull();
    // The next step's code works.
    const later = new Date(now.getTime() + STEP);
    expect(await verifySecondFactor(userId, codeFor(secret, later.getTime()), later)).toBe("totp");
  });

  it("lets only one of two racing requests spend the same code", async () => {
    const { userId, secret } = await userWithTotp();
    const now = new Date();
    const code = codeFor(secret, now.getTime());
    const results = await Promise.all([verifySecondFactor(userId, code, now), verifySecondFactor(userId, code, now)]);
    expect(results.filter((result) => result === "totp")).toHaveLength(1);
  });

  it("refuses a wrong code, a code far from now, and any code while two-factor is off", async () => {
    const { userId, secret } = await userWithTotp();
    const now = new Date();
    const right = codeFor(secret, now.getTime());
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, "0");
    expect(await verifySecondFactor(userId, wrong, now)).toBeNull();
    expect(await verifySecondFactor(userId, codeFor(secret, now.getTime() - 5 * STEP), now)).toBeNull();
    const off = await userWithTotp(false);
    expect(await verifySecondFactor(off.userId, codeFor(off.secret, now.getTime()), now)).toBeNull();
  });

  it("spends a recovery code once, whatever its case and dashes", async () => {
    const { userId } = await userWithTotp();
    await db.recoveryCode.create({ data: { userId, digest: recoveryCodeDigest("ABCDEFGHIJKLMNOP") } });
    expect(await verifySecondFactor(userId, "abcd-efgh-ijkl-mnop")).toBe("recovery_code");
    expect(await verifySecondFactor(userId, "ABCD-EFGH-IJKL-MNOP")).toBeNull();
    const other = await userWithTotp();
    await db.recoveryCode.create({ data: { userId: other.userId, digest: recoveryCodeDigest("QRSTUVWXYZ234567") } });
    // Another user's code is nobody else's.
    expect(await verifySecondFactor(userId, "QRST-UVWX-YZ23-4567")).toBeNull();
  });

  it("keeps the secret sealed: not in the row, and not openable for another purpose", async () => {
    const { userId, secret } = await userWithTotp();
    const row = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { totpSecret: true } });
    expect(row.totpSecret).not.toContain(secret);
    expect(open(row.totpSecret!, "totp-secret")).toBe(secret);
    expect(open(row.totpSecret!, "mail-link")).toBeNull();
    const tampered = row.totpSecret!.slice(0, -2) + (row.totpSecret!.endsWith("A") ? "BB" : "AA");
    expect(open(tampered, "totp-secret")).toBeNull();
  });
});
