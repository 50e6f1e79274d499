// A database too busy to take a query in time (SQLite's write lock held by
// another process; PostgreSQL's pool full) is overload: a team's change fails
// as busy, never as something else (the team "not found"), and a server action
// answers it as a form's refusal: the form says so and keeps what was typed
// (its secrets excepted), nothing is written, and the same form goes through
// once the database is free.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createAccount } from "@/lib/auth/accounts";
import { db } from "@/lib/db";
import { isDatabaseBusy } from "@/lib/database-busy";
import { DomainError } from "@/lib/domain-error";
import { createKey } from "@/lib/keys/lifecycle";
import { inviteMember } from "@/lib/teams/invitations";
import { createTeam } from "@/lib/teams/members";
import { TEAM_NOT_FOUND } from "@/lib/teams/membership";
import { setTeamPolicy } from "@/lib/teams/policy-store";
import { createKeyAction } from "@/lib/web/actions/keys";
import { signInAction } from "@/lib/web/actions/sign-in";
import { DATABASE_BUSY_MESSAGE } from "@/lib/web/define-action";
import { holdTheDatabase } from "../helpers/hold-database";
import { actAs, formOf, request } from "../helpers/next-request";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

// Read when this file's runtime is made, on its first query: a pool of one connection, and a short wait.
vi.hoisted(() => {
  process.env.DATABASE_POOL_SIZE = "1";
  process.env.DATABASE_TIMEOUT_MS = "300";
});

const PASSWORD = "a long enough password";
const email = `busy-action-${Date.now()}@example.com`;
let userId: string;

/** Runs `work` while the database is held, and frees it whatever happens. */
async function whileHeld<T>(work: () => Promise<T>): Promise<T> {
  const release = await holdTheDatabase();
  try {
    return await work();
  } finally {
    await release();
  }
}

beforeAll(async () => {
  const created = await createAccount(email, PASSWORD);
  if (!created.ok) throw new Error(created.error);
  userId = created.userId;
});

beforeEach(() => {
  request.cookies.clear();
  request.headers = new Headers({ "user-agent": "Vitest", "x-keyport-peer-ip": "192.0.2.10" });
});

afterAll(() => {
  delete process.env.DATABASE_POOL_SIZE;
  delete process.env.DATABASE_TIMEOUT_MS;
});

describe("a team's change while the database is too busy to answer in time", () => {
  it("fails as busy, never as 'team not found'; a team that is gone still is", async () => {
    const actor = { userId, ip: null, userAgent: null };
    const team = await createTeam(actor, { name: "Busy crew" });
    const changes = {
      "a key": () => createKey(actor, { label: "busy", environment: "dev", expiresAt: null, teamId: team.id }),
      "an invitation": () => inviteMember(actor, team.id, { email: "busy-invitee@example.com", role: "developer" }),
      "a policy": () => setTeamPolicy(actor, team.id, { requireTwoFactor: true }),
    };
    for (const [name, change] of Object.entries(changes)) {
      const error = await whileHeld(() =>
        change().then(
          () => null,
          (failed: unknown) => failed,
        ),
      );
      expect(error, name).not.toBeInstanceOf(DomainError);
      expect(isDatabaseBusy(error), name).toBe(true);
    }
    const gone = { label: "nowhere", environment: "dev" as const, expiresAt: null, teamId: "no-such-team" };
    await expect(createKey(actor, gone)).rejects.toThrow(TEAM_NOT_FOUND);
    await expect(setTeamPolicy(actor, "no-such-team", { requireTwoFactor: true })).rejects.toThrow(TEAM_NOT_FOUND);
  });
});

describe("a server action while the database is too busy to answer in time", () => {
  it("says so and keeps the email, never the password; the same form then signs in", async () => {
    const form = formOf({ email, password: PASSWORD });
    const answer = await whileHeld(() => signInAction(null, form));
    expect(answer).toEqual({ ok: false, error: DATABASE_BUSY_MESSAGE, fieldErrors: {}, values: { email } });
    expect(JSON.stringify(answer)).not.toContain(PASSWORD);
    expect(await db.session.count({ where: { userId } })).toBe(0);

    await expect(signInAction(null, form)).rejects.toThrow(/^NEXT_REDIRECT \/dashboard$/);
    expect(await db.session.count({ where: { userId } })).toBe(1);
  });

  it("keeps a signed-in form's fields and makes no key; the same form then makes it", async () => {
    await actAs(userId);
    const form = formOf({ label: "typed while busy", environment: "dev", expiry: "never" });
    const answer = await whileHeld(() => createKeyAction(null, form));
    expect(answer).toEqual({
      ok: false,
      error: DATABASE_BUSY_MESSAGE,
      fieldErrors: {},
      values: { label: "typed while busy", environment: "dev", expiry: "never" },
    });
    expect(await db.apiKey.count({ where: { userId, label: "typed while busy" } })).toBe(0);

    expect(await createKeyAction(null, form)).toMatchObject({ ok: true, data: { label: "typed while busy" } });
    expect(await db.apiKey.count({ where: { userId, label: "typed while busy" } })).toBe(1);
  });
});
