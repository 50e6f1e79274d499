// Every account has a personal team (lib/teams/personal-team.ts), made in the
// transaction that makes the account, whichever way it is made; the keys it
// creates, their replacements, and what the API makes with them belong to it.
import { describe, expect, it, vi } from "vitest";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);

const { authOptions } = await import("@/lib/auth/options");
const { createAccount } = await import("@/lib/auth/accounts");
const { db } = await import("@/lib/db");
const { createKey, rotateKey, reportLeak } = await import("@/lib/keys/lifecycle");
const { createGeneration } = await import("@/lib/generations/service");
const { ownerOf } = await import("@/lib/owner");
const { verifyApiKey } = await import("@/lib/keys/verify");
const { adminInProcess: admin } = await import("../helpers/admin-in-process");

let counter = 0;
const email = (what: string) => `team-${what}-${Date.now()}-${counter++}@example.com`;

async function teamsOf(userId: string) {
  return db.membership.findMany({
    where: { userId },
    select: { role: true, team: { select: { id: true, slug: true, name: true, personalOfId: true } } },
  });
}

describe("a personal team", () => {
  it("is made with an account from sign-up: named Personal, a slug not from the email, the account its owner", async () => {
    const address = email("signup");
    const made = await createAccount(address, "a long enough password");
    if (!made.ok) throw new Error(made.error);
    const teams = await teamsOf(made.userId);
    expect(teams).toEqual([
      { role: "owner", team: expect.objectContaining({ name: "Personal", personalOfId: made.userId }) },
    ]);
    expect(teams[0]!.team.slug).toMatch(/^personal-[0-9a-f]{12}$/);
    expect(teams[0]!.team.slug).not.toContain(address.split("@")[0]!.slice(0, 8));
    // Its empty activity chain is signed too: the account verifies before it does anything.
    expect(await admin(["audit:verify", "--email", address])).toMatchObject({ code: 0 });
  });

  it("is made with an account from a first GitHub sign-in, and from the operator CLI", async () => {
    const fromGithub = await authOptions().adapter!.createUser!({
      id: "",
      email: email("github"),
      emailVerified: null,
    });
    expect(await teamsOf(fromGithub.id)).toEqual([
      { role: "owner", team: expect.objectContaining({ personalOfId: fromGithub.id }) },
    ]);
    const address = email("cli");
    const made = await admin(["user:create", "--email", address], "a long enough password\n");
    expect(made.code).toBe(0);
    const { id } = JSON.parse(made.stdout) as { id: string };
    expect(await teamsOf(id)).toEqual([{ role: "owner", team: expect.objectContaining({ personalOfId: id }) }]);
  });

  it("owns the keys the account creates, their replacements, and what the API makes with them", async () => {
    const made = await createAccount(email("keys"), "a long enough password");
    if (!made.ok) throw new Error(made.error);
    const { team } = (await teamsOf(made.userId))[0]!;
    const actor = { userId: made.userId, ip: null, userAgent: null };
    const key = await createKey(actor, { label: "ci", environment: "dev", expiresAt: null });
    const rotated = await rotateKey(actor, key.key.id, "now");
    const other = await createKey(actor, { label: "prod", environment: "prod", expiresAt: null });
    const leaked = await reportLeak(actor, other.key.id);
    const rows = await db.apiKey.findMany({ where: { userId: made.userId }, select: { publicId: true, teamId: true } });
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((row) => row.teamId))).toEqual(new Set([team.id]));
    expect(rows.map((row) => row.publicId).sort()).toEqual(
      [key.key.id, rotated.key.id, other.key.id, leaked.replacement!.key.id].sort(),
    );

    // The gate reads the key's team with the key, and a generation made with it belongs to the team.
    const verified = await verifyApiKey(rotated.secret);
    if (!verified.ok) throw new Error(verified.reason);
    expect(verified.key.teamId).toBe(team.id);
    const { generation } = await createGeneration(
      ownerOf(verified.key),
      { model: "aurora-image-2", app: null, prompt: "a lighthouse", inputFileId: null },
      null,
    );
    expect(await db.generation.findUniqueOrThrow({ where: { id: generation.id }, select: { teamId: true } })).toEqual({
      teamId: team.id,
    });
  });
});
