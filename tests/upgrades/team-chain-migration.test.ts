// The team activity chain migration on a database the previous release (teams
// without chains of their own) made and filled: its key events sit in the
// members' account chains, keyed and signed as that release wrote them. The
// migration and db:deploy's audit:start-team-chains keep every account chain
// as it was, start each personal team's chain with a row committing to its
// account chain's head, start the other teams' empty and signed, and every
// chain verifies, before and after the first change this release makes.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { headSeal, keyedHash, teamChainId, verifyChain } from "@/lib/audit-chain";
import { auditChainKey } from "@/lib/audit-key";
import { databaseMigratedUpTo, inColumnsOf, rawSql } from "../helpers/earlier-release";
import { projectRoot } from "../helpers/test-database";

// Each case below starts several `prisma` and `tsx` processes: about 60 s alone on 2 cores, over 120 s while another
// heavy job shares the machine (CI failed there once, on PostgreSQL). Their 300 s limit is for a hang, not for speed.
const run = promisify(execFile);
const PREVIOUS_RELEASE_LAST = "20261126234620_teams";

const database = await databaseMigratedUpTo(PREVIOUS_RELEASE_LAST);
afterAll(() => database.drop());

const sql = (text: string, params: unknown[] = []) => rawSql(database.url, text, params);
const rows = (table: string, order: string) => sql(`SELECT * FROM "${table}" ORDER BY "${order}"`);

async function admin(...args: string[]) {
  try {
    const { stdout } = await run(
      path.join(projectRoot, "node_modules", ".bin", "tsx"),
      ["--conditions=react-server", path.join(projectRoot, "scripts", "admin.mts"), ...args],
      { cwd: projectRoot, env: { ...process.env, DATABASE_URL: database.url } },
    );
    return { code: 0, out: JSON.parse(stdout) as Record<string, unknown>, stderr: "" };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, out: null, stderr: failed.stderr };
  }
}

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 10, minute)).toISOString();

/** An account chain as the previous release wrote it: keyed rows, a signed head. */
async function accountChain(userId: string, events: { action: string; keyId: string | null }[]) {
  const key = auditChainKey();
  let previous = "";
  for (const [index, event] of events.entries()) {
    const row = {
      seq: index + 1,
      action: event.action,
      keyId: event.keyId,
      ip: "192.0.2.1",
      userAgent: "Mozilla/5.0",
      details: event.keyId ? JSON.stringify({ environment: "dev", label: "a key" }) : null,
      createdAt: at(index),
    };
    previous = keyedHash(key, previous, userId, row);
    await sql(
      'INSERT INTO "AuditEvent" ("id", "userId", "seq", "action", "keyId", "ip", "userAgent", "details", "createdAt", "hash") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        `e-${userId}-${row.seq}`,
        userId,
        row.seq,
        row.action,
        row.keyId,
        row.ip,
        row.userAgent,
        row.details,
        row.createdAt,
        previous,
      ],
    );
  }
  const seal = headSeal(key, userId, { seq: events.length, hash: previous });
  await sql('UPDATE "User" SET "auditSeq" = ?, "auditHash" = ?, "auditSeal" = ? WHERE "id" = ?', [
    events.length,
    previous,
    seal,
    userId,
  ]);
  return { seq: events.length, hash: previous };
}

async function seed() {
  for (const [id, email] of [
    ["u-ada", "ada@example.com"],
    ["u-bob", "bob@example.com"],
  ] as const) {
    await sql('INSERT INTO "User" ("id", "email", "updatedAt", "createdAt") VALUES (?, ?, ?, ?)', [
      id,
      email,
      at(0),
      at(0),
    ]);
  }
  const team = (id: string, slug: string, personalOfId: string | null) =>
    sql('INSERT INTO "Team" ("id", "slug", "name", "personalOfId", "createdAt") VALUES (?, ?, ?, ?, ?)', [
      id,
      slug,
      personalOfId ? "Personal" : "Payments",
      personalOfId,
      at(0),
    ]);
  await team("t-ada", "personal-aaaaaaaaaaaa", "u-ada");
  await team("t-bob", "personal-bbbbbbbbbbbb", "u-bob");
  await team("t-pay", "payments", null);
  for (const [teamId, userId, role] of [
    ["t-ada", "u-ada", "owner"],
    ["t-bob", "u-bob", "owner"],
    ["t-pay", "u-ada", "owner"],
    ["t-pay", "u-bob", "developer"],
  ]) {
    await sql('INSERT INTO "Membership" ("teamId", "userId", "role", "createdAt") VALUES (?, ?, ?, ?)', [
      teamId,
      userId,
      role,
      at(0),
    ]);
  }
  const key = (id: string, teamId: string, userId: string) =>
    sql(
      'INSERT INTO "ApiKey" ("id", "publicId", "teamId", "userId", "environment", "label", "digest", "displayFragment", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [id, `key_${id}`, teamId, userId, "dev", "a key", `digest-${id}`, "sk_dev_Ab…Cd", at(1)],
    );
  await key("AdaKey0000000001", "t-ada", "u-ada");
  await key("PayKey0000000001", "t-pay", "u-bob");
  return {
    ada: await accountChain("u-ada", [
      { action: "auth.sign_in", keyId: null },
      { action: "key.created", keyId: "key_AdaKey0000000001" },
    ]),
    bob: await accountChain("u-bob", [
      { action: "auth.sign_in", keyId: null },
      { action: "key.created", keyId: "key_PayKey0000000001" },
      { action: "key.renamed", keyId: "key_PayKey0000000001" },
    ]),
  };
}

describe(`the team chain migration, on ${database.provider}`, () => {
  it("keeps every account chain, starts each team's, and every chain verifies, before and after the next change", async () => {
    const heads = await seed();
    // The control: the previous release's chains verify before the migration (this release's CLI needs the new
    // schema, so they are checked here with the functions it uses).
    for (const user of await rows("User", "id")) {
      const chain = await sql('SELECT * FROM "AuditEvent" WHERE "userId" = ? ORDER BY "seq"', [user.id]);
      const head = { seq: Number(user.auditSeq), hash: String(user.auditHash), seal: String(user.auditSeal) };
      const parsed = chain.map((row) => ({
        ...row,
        seq: Number(row.seq),
        createdAt: new Date(row.createdAt as string),
      }));
      expect(verifyChain(String(user.id), parsed as never, head, auditChainKey())).toBeNull();
    }
    const before = {
      audit: await rows("AuditEvent", "id"),
      users: await rows("User", "id"),
      keys: await rows("ApiKey", "id"),
      teams: await rows("Team", "id"),
    };

    await run(path.join(projectRoot, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_URL: database.url },
    });
    const started = await admin("audit:start-team-chains");
    expect(started.out).toEqual({ started_personal_team_chains: 2, started_other_team_chains: 1 });

    // Nothing of the account chains, the accounts or the keys changed; the teams gained only their chain's head.
    expect(await rows("AuditEvent", "id")).toEqual(before.audit);
    // The start takes each owner's row lock (a write), which Prisma stamps in updatedAt; nothing else moves.
    const withoutStamp = (list: Record<string, unknown>[]) =>
      list.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => column !== "updatedAt")));
    expect(withoutStamp(await rows("User", "id"))).toEqual(withoutStamp(before.users));
    // Columns later migrations added (a service account's, say) are left out, and must be empty.
    expect(inColumnsOf(await rows("ApiKey", "id"), before.keys[0]!)).toEqual(before.keys);
    const teams = await rows("Team", "id");
    const chainHead = new Set(["auditSeq", "auditHash", "auditSeal"]);
    // Columns later migrations added (the team's policies) hold their defaults.
    const withoutHead = teams.map((team) =>
      Object.fromEntries(Object.entries(team).filter(([column]) => !chainHead.has(column))),
    );
    // (A boolean column reads back as 0 from SQLite's raw rows, false from PostgreSQL's.)
    const off = database.provider === "sqlite" ? 0 : false;
    expect(
      inColumnsOf(withoutHead, before.teams[0]!, {
        productionKeys: "developers",
        requireTwoFactor: off,
        prodDefaultScopes: "all",
      }),
    ).toEqual(before.teams);
    expect(teams.map((team) => [team.id, Number(team.auditSeq)])).toEqual([
      ["t-ada", 1],
      ["t-bob", 1],
      ["t-pay", 0],
    ]);

    // Each personal team's chain starts with a row committing to its account chain's head at the migration.
    const events = await rows("TeamAuditEvent", "teamId");
    expect(events.map((row) => [row.teamId, Number(row.seq), row.action, row.actorKind, row.actorId])).toEqual([
      ["t-ada", 1, "team.chain_started", "operator", "u-ada"],
      ["t-bob", 1, "team.chain_started", "operator", "u-bob"],
    ]);
    expect(JSON.parse(events[0]!.details as string)).toEqual({ account_chain: heads.ada });
    expect(JSON.parse(events[1]!.details as string)).toEqual({ account_chain: heads.bob });
    // Checked here with the functions the app uses, as well as by the CLI below.
    const payments = teams.find((team) => team.id === "t-pay")!;
    expect(
      verifyChain(teamChainId("t-pay"), [], { seq: 0, hash: "", seal: String(payments.auditSeal) }, auditChainKey()),
    ).toBeNull();

    const verified = await admin("audit:verify");
    expect(verified.stderr).toBe("");
    expect(verified.out).toEqual({ ok: true, accounts: 2, teams: 3, rows: 2 + 3 + 2 });
    // A second run (every db:deploy runs it) changes nothing.
    expect((await admin("audit:start-team-chains")).out).toEqual({
      started_personal_team_chains: 0,
      started_other_team_chains: 0,
    });

    // This release's first change to the shared team goes to its chain, and everything still verifies.
    const revoked = await admin("key:revoke", "--id", "key_PayKey0000000001");
    expect(revoked.code, revoked.stderr).toBe(0);
    const payRows = await sql('SELECT "seq", "action", "keyId" FROM "TeamAuditEvent" WHERE "teamId" = ?', ["t-pay"]);
    expect(payRows.map((row) => [Number(row.seq), row.action, row.keyId])).toEqual([
      [1, "key.revoked", "key_PayKey0000000001"],
    ]);
    expect((await admin("audit:verify", "--team", "payments")).out).toEqual({ ok: true, team: "payments", rows: 1 });
    expect((await admin("audit:verify")).out).toMatchObject({ ok: true, accounts: 2, teams: 3 });
    expect(await rows("AuditEvent", "id")).toEqual(before.audit);
  }, 300_000);
});
