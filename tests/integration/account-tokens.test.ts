// Signing in with GitHub links the account through next-auth's adapter
// (lib/auth/options.ts). GitHub's tokens are bearer secrets Keyport never uses,
// so the Account row keeps who the account is and what was granted, and none
// of the tokens.
import { randomBytes } from "node:crypto";
import type { AdapterAccount } from "next-auth/adapters";
import { describe, expect, it, vi } from "vitest";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);

const { authOptions } = await import("@/lib/auth/options");
const { createAccount } = await import("@/lib/auth/accounts");
const { db } = await import("@/lib/db");
const { adminInProcess: admin } = await import("../helpers/admin-in-process");

const PASSWORD = "a long enough password";

/** What next-auth hands linkAccount after GitHub's callback: the provider, the profile's id, and GitHub's token response. */
function githubAccount(userId: string): AdapterAccount {
  return {
    provider: "github",
    type: "oauth",
    providerAccountId: String(100_000 + randomBytes(2).readUInt16BE()),
    // As a GitHub App with expiring user tokens answers (an OAuth app sends the first three only).
    access_token: `gho_${randomBytes(18).toString("hex")}`,
    token_type: "bearer",
    scope: "read:user,user:email",
    refresh_token: `ghr_${randomBytes(38).toString("hex")}`,
    expires_at: Math.floor(Date.now() / 1000) + 8 * 3600,
    id_token: `eyJhbGciOiJSUzI1NiJ9.${randomBytes(48).toString("base64url")}.${randomBytes(64).toString("base64url")}`,
    session_state: randomBytes(16).toString("hex"),
    // A field the Account model has no column for: a spread into create() would fail on it.
    refresh_token_expires_in: 15_897_600,
    userId,
  };
}

describe("a GitHub account link", () => {
  it("keeps the provider, the account id, the type and the scope, and none of GitHub's tokens", async () => {
    const created = await createAccount(`github-${Date.now()}@example.com`, PASSWORD);
    if (!created.ok) throw new Error(created.error);
    const adapter = authOptions().adapter!;
    const account = githubAccount(created.userId);

    await adapter.linkAccount!(account);

    const rows = await db.$queryRaw<
      Record<string, unknown>[]
    >`SELECT * FROM "Account" WHERE "userId" = ${created.userId}`;
    expect(rows).toEqual([
      expect.objectContaining({
        provider: "github",
        providerAccountId: account.providerAccountId,
        type: "oauth",
        scope: "read:user,user:email",
        token_type: "bearer",
        expires_at: account.expires_at,
        access_token: null,
        refresh_token: null,
        id_token: null,
        session_state: null,
      }),
    ]);
    const stored = JSON.stringify(rows);
    for (const field of ["access_token", "refresh_token", "id_token", "session_state"] as const) {
      expect(stored, field).not.toContain(account[field]);
    }
    // The link still does its one job: the next GitHub sign-in finds the user by it.
    const user = await adapter.getUserByAccount!({ provider: "github", providerAccountId: account.providerAccountId });
    expect(user).toMatchObject({ id: created.userId });
  });

  it("is emptied by db:deploy's accounts:clear-tokens where the previous release stored tokens meanwhile", async () => {
    const created = await createAccount(`github-old-${Date.now()}@example.com`, PASSWORD);
    if (!created.ok) throw new Error(created.error);
    const account = githubAccount(created.userId);
    delete account.refresh_token_expires_in;
    // As the previous release's adapter stored it, during a rolling deploy.
    await db.account.create({ data: account });
    const cleared = await admin(["accounts:clear-tokens"]);
    expect(cleared.code).toBe(0);
    expect(JSON.parse(cleared.stdout).cleared_accounts).toBeGreaterThanOrEqual(1);
    expect(await db.account.findFirst({ where: { userId: created.userId } })).toMatchObject({
      scope: "read:user,user:email",
      access_token: null,
      refresh_token: null,
      id_token: null,
      session_state: null,
    });
  });
});
