// A database too busy to take a query in time (SQLite's write lock held by
// another process; PostgreSQL's pool full) is overload: a team's change fails
// as busy, never as something else (the team "not found").
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAccount } from "@/lib/auth/accounts";
import { isDatabaseBusy } from "@/lib/database-busy";
import { DomainError } from "@/lib/domain-error";
import { createKey } from "@/lib/keys/lifecycle";
import { inviteMember } from "@/lib/teams/invitations";
import { createTeam } from "@/lib/teams/members";
import { TEAM_NOT_FOUND } from "@/lib/teams/membership";
import { setTeamPolicy } from "@/lib/teams/policy-store";
import { holdTheDatabase } from "../helpers/hold-database";

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
