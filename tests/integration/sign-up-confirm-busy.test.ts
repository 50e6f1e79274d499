// Confirming a sign-up while the database is too busy to finish: the person
// is told to try again, and the link still works when they do. The account's
// rows are made in one transaction with the link's spending; here the
// personal team's insert, the last of them, fails as a busy database does.
import { beforeEach, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { passwordHasher } from "@/lib/auth/password";
import { newToken, tokenDigest } from "@/lib/security/token";
import { isDatabaseBusy } from "@/lib/database-busy";

const busy = vi.hoisted(() => ({ next: false }));
vi.mock("@/lib/teams/personal-team", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/teams/personal-team")>();
  return {
    ...actual,
    createPersonalTeam: (...args: Parameters<typeof actual.createPersonalTeam>) => {
      if (!busy.next) return actual.createPersonalTeam(...args);
      busy.next = false;
      // What the SQLite driver adapter throws when the write lock stays held past the busy timeout.
      throw Object.assign(new Error("Operation has timed out"), { code: "P1008" });
    },
  };
});

const { confirmSignUp } = await import("@/lib/auth/sign-up");

const PASSWORD = "a long enough password";
let counter = 0;

beforeEach(() => {
  busy.next = false;
});

async function pendingSignUp() {
  const email = `confirm-busy-${Date.now()}-${counter++}@example.com`;
  const token = newToken();
  await db.pendingSignUp.create({
    data: {
      tokenDigest: tokenDigest(token),
      email,
      passwordHash: await passwordHasher.hash(PASSWORD),
      ip: "192.0.2.80",
      client: "192.0.2.80",
      expiresAt: new Date(Date.now() + 60 * 60 * 1000),
    },
  });
  return { email, token };
}

it("leaves the link working when the database is too busy to make the account, and makes it on the next try", async () => {
  const { email, token } = await pendingSignUp();
  busy.next = true;
  const failed = await confirmSignUp(token, PASSWORD, "192.0.2.80").catch((error: unknown) => error);
  expect(isDatabaseBusy(failed)).toBe(true);
  expect(await db.user.count({ where: { email } })).toBe(0);
  expect(await db.pendingSignUp.count({ where: { email } })).toBe(1);

  const made = await confirmSignUp(token, PASSWORD, "192.0.2.80");
  expect(made).toMatchObject({ ok: true, email });
  expect(await db.user.count({ where: { email } })).toBe(1);
  expect(await db.team.count({ where: { personalOf: { email } } })).toBe(1);
  expect(await db.pendingSignUp.count({ where: { email } })).toBe(0);
});

it("spends the link once: a second confirmation is told the link is gone (control)", async () => {
  const { email, token } = await pendingSignUp();
  expect(await confirmSignUp(token, PASSWORD, "192.0.2.81")).toMatchObject({ ok: true });
  expect(await confirmSignUp(token, PASSWORD, "192.0.2.81")).toMatchObject({ ok: false, linkDead: true });
  expect(await db.user.count({ where: { email } })).toBe(1);
});
