// The switch to a keyed activity chain (lib/audit-chain.ts): rows written
// since carry an HMAC under a key derived from ENCRYPTION_KEY and the head is
// signed, so rewriting rows and their hashes without the key fails
// audit:verify; the switch (audit:key) checks every chain written before it
// and signs its head, never re-signing a row. An account's chain holds its
// person's own account events; every key event goes to the key's team chain,
// keyed from its first row and naming who acted (the last describes here).
import { mkdtempSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { chainHash, keyedHash, teamChainId, type ChainedRow } from "@/lib/audit-chain";
import { checkExport, exportChain, exportTeamChain } from "@/lib/audit-chain-store";
import { auditChainKey } from "@/lib/audit-key";
import { createAccount } from "@/lib/auth/accounts";
import { createPersonalTeam } from "@/lib/teams/personal-team";
import { db } from "@/lib/db";
import { createKey, revokeKey, rotateKey } from "@/lib/keys/lifecycle";
import { accountRows as rows, recordAccountEvents, teamRows } from "../helpers/account-rows";
import { adminInProcess as admin } from "../helpers/admin-in-process";
import { personalTeam } from "../helpers/teams";
import { projectRoot } from "../helpers/test-database";

let counter = 0;

/**
 * An activity row as the release before the switch wrote it (lib/audit.ts
 * before this change): plain SHA-256, the head's hash moved, no seal.
 */
async function writeUnkeyed(userId: string, action: string, details: object) {
  await db.$transaction(async (tx) => {
    const head = await tx.user.update({
      where: { id: userId },
      data: { auditSeq: { increment: 1 } },
      select: { auditSeq: true, auditHash: true },
    });
    const row = {
      seq: head.auditSeq,
      action,
      keyId: null,
      ip: "203.0.113.9",
      userAgent: "keyport-admin-cli",
      details: JSON.stringify(details),
      createdAt: new Date(),
    };
    const hash = chainHash(head.auditHash, userId, row);
    await tx.user.update({ where: { id: userId }, data: { auditHash: hash } });
    await tx.auditEvent.create({ data: { userId, ...row, hash } });
  });
}

/** An account whose whole history the previous release wrote: `count` rows, no seal. */
async function accountBeforeTheSwitch(count = 4) {
  const email = `keyed-${Date.now()}-${counter++}@example.com`;
  // Its personal team, as the teams migration gave every account; no seal, as before the switch.
  const user = await db.user.create({ data: { email }, select: { id: true } });
  await createPersonalTeam(db, user.id);
  for (let i = 0; i < count; i++) await writeUnkeyed(user.id, "auth.sessions_ended", { count: i });
  return { email, userId: user.id };
}

/** An account as the app makes one since the switch: no rows, its empty chain signed. */
async function accountInTheApp() {
  const email = `keyed-app-${Date.now()}-${counter++}@example.com`;
  const made = await createAccount(email, "a long enough password");
  if (!made.ok) throw new Error(made.error);
  return { email, userId: made.userId };
}

/** Activity the app writes now to an account's chain: a sign-in and a password change (two rows, keyed). */
async function actInTheApp(userId: string) {
  await recordAccountEvents(userId, ["auth.sign_in", "auth.password_changed"]);
}

/**
 * What someone with write access to the database but not the key can do:
 * change a row, then recompute the hashes from it through row `through` (plain
 * SHA-256, which is all they can compute), and the head's if that is the last.
 */
async function rewriteWithoutKey(userId: string, seq: number, change: Partial<ChainedRow>, through = Infinity) {
  const all = await rows(userId);
  let previous = all[seq - 2]?.hash ?? "";
  for (const row of all.slice(seq - 1, through)) {
    const content = row.seq === seq ? { ...row, ...change } : row;
    const hash = chainHash(previous, userId, content);
    await db.auditEvent.update({ where: { id: row.id }, data: { ...(row.seq === seq ? change : {}), hash } });
    previous = hash;
  }
  if (through >= all.length) await db.user.update({ where: { id: userId }, data: { auditHash: previous } });
}

const verify = (email: string) => admin(["audit:verify", "--email", email]);
const verifyTeam = (slug: string) => admin(["audit:verify", "--team", slug]);

describe("the switch on a chain written before it", () => {
  it("reports it unsigned, signs its head without touching a row, and the app's next row commits to it", async () => {
    const { email, userId } = await accountBeforeTheSwitch();
    const before = await rows(userId);
    expect((await verify(email)).stderr).toContain(
      "carries no signature of the deployment's key: it was written before the switch and never signed, or its " +
        "signature was removed; read its rows, then sign it with audit:key --email",
    );

    // --email signs that account's chain only: its personal team's was signed when the team was made.
    expect(await admin(["audit:key", "--email", email])).toMatchObject({
      code: 0,
      stdout: '{"signed_accounts":1,"signed_teams":0}\n',
    });
    expect((await rows(userId)).map((row) => row.hash)).toEqual(before.map((row) => row.hash));
    expect(await verify(email)).toMatchObject({ code: 0 });
    // A second run finds nothing to sign.
    expect((await admin(["audit:key", "--email", email])).stdout).toBe('{"signed_accounts":0,"signed_teams":0}\n');

    await actInTheApp(userId);
    const after = await rows(userId);
    expect(after.map((row) => row.hash.startsWith("hmac-sha256:"))).toEqual([false, false, false, false, true, true]);
    expect(after[4]!.hash).toBe(keyedHash(auditChainKey(), before[3]!.hash, userId, after[4]!));
    expect(await verify(email)).toMatchObject({ code: 0, stderr: "" });
  });

  it("fails an old row rewritten with the hashes after it: the first signed row no longer follows", async () => {
    const { email, userId } = await accountBeforeTheSwitch();
    await admin(["audit:key", "--email", email]);
    await actInTheApp(userId);
    await rewriteWithoutKey(userId, 2, { ip: "192.0.2.66" }, 4);
    const checked = await verify(email);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(`${email} (${userId}): row 5 was changed, or a row before it`);
    // Rewriting the signed rows too, and the head's hash, leaves the signed head.
    await rewriteWithoutKey(userId, 2, { ip: "192.0.2.66" });
    expect((await verify(email)).stderr).toContain(
      "one of rows 1 to 6 was changed: the signed head no longer matches row 6",
    );
  });

  it("fails an account that wrote nothing since: its signed head no longer matches", async () => {
    const { email, userId } = await accountBeforeTheSwitch();
    await admin(["audit:key", "--email", email]);
    await rewriteWithoutKey(userId, 3, { details: JSON.stringify({ count: 99 }) });
    const checked = await verify(email);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain("one of rows 1 to 4 was changed: the signed head no longer matches row 4");
  });

  it("stops at a chain that fails its check, naming it, and signs no chain at all", async () => {
    const good = await accountBeforeTheSwitch();
    const broken = await accountBeforeTheSwitch();
    await db.auditEvent.update({
      where: { userId_seq: { userId: broken.userId, seq: 2 } },
      data: { action: "key.created" },
    });
    const run = await admin(["audit:key"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("signed nothing");
    expect(run.stderr).toContain(`${broken.email} (${broken.userId}): row 2 was changed`);
    const seals = await db.user.findMany({
      where: { id: { in: [good.userId, broken.userId] } },
      select: { auditSeal: true },
    });
    expect(seals).toEqual([{ auditSeal: "" }, { auditSeal: "" }]);
    // Out of the way of other files' runs of the whole switch.
    await db.user.delete({ where: { id: broken.userId } });
  });
});

describe("a keyed chain", () => {
  it("fails a signed row changed, whatever hash is written for it without the key", async () => {
    const { email, userId } = await accountInTheApp();
    await actInTheApp(userId);
    await actInTheApp(userId);
    await rewriteWithoutKey(userId, 2, { ip: "192.0.2.67" });
    const checked = await verify(email);
    expect(checked.code).toBe(1);
    // Rows 2 to 4 follow each other again, but row 1 is the last the key signed, and the head's seal fails.
    expect(checked.stderr).toContain("one of rows 2 to 4 was changed: the signed head no longer matches row 4");

    // A row signed with a key of one's own is no better.
    const [, , third, fourth] = await rows(userId);
    await db.auditEvent.update({
      where: { id: fourth!.id },
      data: { hash: keyedHash(Buffer.alloc(32, 1), third!.hash, userId, fourth!) },
    });
    expect((await verify(email)).stderr).toContain(
      "row 4 was changed, or a row before it: its signature no longer matches",
    );
  });

  it("fails rows cut off the end with the head moved back to the last row left", async () => {
    const { email, userId } = await accountInTheApp();
    for (let i = 0; i < 3; i++) await actInTheApp(userId);
    const all = await rows(userId);
    await db.auditEvent.deleteMany({ where: { userId, seq: { gt: 4 } } });
    await db.user.update({ where: { id: userId }, data: { auditSeq: 4, auditHash: all[3]!.hash } });
    const checked = await verify(email);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(
      `rows 5 to ${all.length} were removed from the end (the signed head names row ${all.length})`,
    );
  });

  it("reports rows an instance without the key added (a rolling deploy) until a person signs them", async () => {
    const { email, userId } = await accountInTheApp();
    await actInTheApp(userId);
    await writeUnkeyed(userId, "auth.sessions_ended", { count: 1 });
    const checked = await verify(email);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain("row 3 was added after the signed row 2, starting without the key");
    // The app's next rows do not vouch for it: the seal stays on row 2.
    await actInTheApp(userId);
    expect((await verify(email)).stderr).toContain("rows 3 to 5 were added after the signed row 2");
    expect((await db.user.findUniqueOrThrow({ where: { id: userId } })).auditSeal).toMatch(/^hmac-sha256:2:/);
    // An operator who read them signs them; the app's next row follows.
    expect((await admin(["audit:key", "--email", email])).code).toBe(0);
    expect((await verify(email)).code).toBe(0);
    await actInTheApp(userId);
    expect((await verify(email)).code).toBe(0);
  });

  it("is not laundered by the app: rewritten without the key and its seal cleared, it stays unsigned", async () => {
    const { email, userId } = await accountInTheApp();
    await actInTheApp(userId);
    await actInTheApp(userId);
    expect((await verify(email)).code).toBe(0);
    // Every row rewritten as the release before the switch would have hashed it, the head moved, the seal cleared:
    // the chain now looks as if it was written before the switch.
    await rewriteWithoutKey(userId, 1, { ip: "192.0.2.69" });
    await db.user.update({ where: { id: userId }, data: { auditSeal: "" } });
    expect((await verify(email)).stderr).toContain("carries no signature of the deployment's key");
    // The owner acts in the app: the new row is keyed, but nothing signs what came before it.
    await actInTheApp(userId);
    const checked = await verify(email);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain("carries no signature of the deployment's key");
    expect((await db.user.findUniqueOrThrow({ where: { id: userId } })).auditSeal).toBe("");
    // Nor does an emptied chain take a new seal over rows it still names.
    await db.user.update({ where: { id: userId }, data: { auditSeq: 0, auditHash: "", auditSeal: "x" } });
    await db.auditEvent.deleteMany({ where: { userId } });
    await actInTheApp(userId);
    expect((await db.user.findUniqueOrThrow({ where: { id: userId } })).auditSeal).toBe("x");
    expect((await verify(email)).code).toBe(1);
  });
});

describe("an emptied chain", () => {
  it("passes for an account that did nothing yet (the control), and is reported once emptied", async () => {
    const { email, userId } = await accountInTheApp();
    expect(await verify(email)).toMatchObject({ code: 0 });
    await actInTheApp(userId);
    await actInTheApp(userId);
    // Every row deleted and the head set back to nothing, the seal kept: the seal names a row that is gone.
    await db.auditEvent.deleteMany({ where: { userId } });
    await db.user.update({ where: { id: userId }, data: { auditSeq: 0, auditHash: "" } });
    expect((await verify(email)).stderr).toContain(
      "rows 1 to 4 were removed from the end (the signed head names row 4)",
    );
    // The seal cleared too (found by an attack review: this passed, and the next action signed a fresh chain).
    await db.user.update({ where: { id: userId }, data: { auditSeal: "" } });
    expect((await verify(email)).stderr).toContain("carries no signature of the deployment's key");
    await actInTheApp(userId);
    const checked = await verify(email);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain("carries no signature of the deployment's key");
  });
});

describe("a team chain's head and seal put back", () => {
  // A team chain that holds can still have lost its end: its head and seal saved, later put back with the rows
  // after them deleted. Each key of the team must have its "created" row in the team's chain.
  it("passes the chain, but names the key whose creation it hid (third look of the attack review)", async () => {
    const { userId } = await accountInTheApp();
    const team = await personalTeam(userId);
    const actor = { userId, ip: null, userAgent: "vitest" };
    await createKey(actor, { label: "ci", environment: "dev", expiresAt: null });
    // Saved by someone who can read the database.
    const saved = await db.team.findUniqueOrThrow({
      where: { id: team.id },
      select: { auditSeq: true, auditHash: true, auditSeal: true },
    });
    const hidden = await createKey(actor, { label: "hidden", environment: "prod", expiresAt: null });
    expect(await verifyTeam(team.slug)).toMatchObject({ code: 0 }); // the control: the key is recorded
    await db.teamAuditEvent.deleteMany({ where: { teamId: team.id, seq: { gt: saved.auditSeq } } });
    await db.team.update({ where: { id: team.id }, data: saved });
    // The chain itself holds (the seal put back signs the row it names): only the key's missing row shows the cut.
    const named = `team ${team.slug} (${team.id}): key ${hidden.key.id} has no "created" row in this team's log`;
    const checked = await verifyTeam(team.slug);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(named);
    // Checking every chain names it too.
    const all = await admin(["audit:verify"]);
    expect(all.code).toBe(1);
    expect(all.stderr).toContain(named);
  });

  it("names a key moved into the account's personal team from another account (the re-check of the review)", async () => {
    const victim = await accountInTheApp();
    const other = await accountInTheApp();
    const made = await createKey(
      { userId: other.userId, ip: null, userAgent: "vitest" },
      { label: "moved", environment: "dev", expiresAt: null },
    );
    const team = await personalTeam(victim.userId);
    expect(await verifyTeam(team.slug)).toMatchObject({ code: 0 }); // the control
    // Straight in the database: its "created" row stays in the other account's personal team's chain.
    await db.$executeRaw`UPDATE "ApiKey" SET "teamId" = ${team.id} WHERE "publicId" = ${made.key.id}`;
    const checked = await verifyTeam(team.slug);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(
      `team ${team.slug} (${team.id}): key ${made.key.id} has no "created" row in this team's log`,
    );
  });
});

describe("an export checked offline", () => {
  async function exportFile(
    userId: string,
    change?: (json: { rows: { seq: number; ip: string | null; hash: string }[] }) => void,
  ) {
    const json = JSON.parse(JSON.stringify(await exportChain(db, userId)));
    change?.(json);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "keyport-keyed-")), "export.json");
    writeFileSync(file, JSON.stringify(json));
    return file;
  }

  it("checks a signed export with the key, and names a row rewritten in it without the key", async () => {
    const { userId } = await accountBeforeTheSwitch(2);
    await admin(["audit:key", "--email", (await db.user.findUniqueOrThrow({ where: { id: userId } })).email]);
    await actInTheApp(userId);
    const good = await admin(["audit:verify", "--file", await exportFile(userId)]);
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ ok: true, rows: 4, keyed: true });

    // Row 3 (signed) changed, and given the only hash one can compute without the key.
    const edited = await exportFile(userId, (json) => {
      const row = json.rows[2]!;
      row.ip = "192.0.2.68";
      row.hash = chainHash(json.rows[1]!.hash, userId, row as unknown as ChainedRow);
    });
    const checked = await admin(["audit:verify", "--file", edited]);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain("row 4 was changed, or a row before it");
  });

  it("still checks an export made before the switch (v1, SHA-256 only) as it was checked then", async () => {
    const { userId } = await accountBeforeTheSwitch(3);
    const file = await exportFile(userId, (json) => {
      Object.assign(json, { format: "keyport.activity-chain.v1" });
      delete (json as unknown as { head: { seal?: string } }).head.seal;
    });
    const checked = await admin(["audit:verify", "--file", file]);
    expect(JSON.parse(checked.stdout)).toMatchObject({ ok: true, rows: 3, keyed: false });
  });

  it("needs the deployment's ENCRYPTION_KEY for a signed export", async () => {
    const { userId } = await accountInTheApp();
    await actInTheApp(userId);
    const file = await exportFile(userId);
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const env = { ...process.env };
      delete env.ENCRYPTION_KEY;
      const child = spawn(
        path.join(projectRoot, "node_modules", ".bin", "tsx"),
        ["--conditions=react-server", "scripts/admin.mts", "audit:verify", "--file", file],
        { cwd: projectRoot, env, stdio: ["ignore", "ignore", "pipe"] },
      );
      let err = "";
      child.stderr.on("data", (chunk) => (err += chunk));
      child.on("error", reject);
      child.on("close", (exit) => resolve({ code: exit, stderr: err }));
    });
    expect(code).toBe(2);
    expect(stderr).toContain("set the deployment's ENCRYPTION_KEY to check it");
  });
});

describe("a team chain", () => {
  /** A team whose chain holds a key's life: made, rotated (the replacement's own row), the replacement revoked. */
  async function teamWithKeyChanges() {
    const owner = await accountInTheApp();
    const team = await personalTeam(owner.userId);
    const actor = { userId: owner.userId, ip: "198.51.100.5", userAgent: "vitest" };
    const made = await createKey(actor, { label: "ci", environment: "dev", expiresAt: null });
    const rotated = await rotateKey(actor, made.key.id, "now");
    await revokeKey(actor, rotated.key.id, "test");
    return { ...owner, team };
  }

  /**
   * What someone with write access to the database but not the key can do to a
   * team's chain: change row `seq`, then recompute the hashes from it to the
   * end with plain SHA-256 (all they can compute), and move the head's hash.
   */
  async function rewriteTeamWithoutKey(teamId: string, seq: number, change: Partial<ChainedRow>) {
    const all = await teamRows(teamId);
    let previous = all[seq - 2]?.hash ?? "";
    for (const row of all.slice(seq - 1)) {
      const content = row.seq === seq ? { ...row, ...change } : row;
      const hash = chainHash(previous, teamChainId(teamId), content);
      await db.teamAuditEvent.update({ where: { id: row.id }, data: { ...(row.seq === seq ? change : {}), hash } });
      previous = hash;
    }
    await db.team.update({ where: { id: teamId }, data: { auditHash: previous } });
  }

  it("holds every key change, keyed under the team's chain name and naming who acted; it verifies (the control)", async () => {
    const { userId, team } = await teamWithKeyChanges();
    const chain = await teamRows(team.id);
    expect(chain.map((row) => row.action)).toEqual(["key.created", "key.rotated", "key.created", "key.revoked"]);
    expect(chain.map((row) => [row.actorKind, row.actorId])).toEqual(Array(4).fill(["person", userId]));
    // Not in the account's own chain.
    expect(await rows(userId)).toEqual([]);
    const key = auditChainKey();
    expect(chain[0]!.hash).toBe(keyedHash(key, "", teamChainId(team.id), chain[0]!));
    expect(chain[3]!.hash).toBe(keyedHash(key, chain[2]!.hash, teamChainId(team.id), chain[3]!));
    const head = await db.team.findUniqueOrThrow({ where: { id: team.id } });
    expect(head).toMatchObject({ auditSeq: 4, auditHash: chain[3]!.hash });
    expect(head.auditSeal).toMatch(/^hmac-sha256:4:[0-9a-f]{64}$/);

    const checked = await verifyTeam(team.slug);
    expect(checked).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(checked.stdout)).toEqual({ ok: true, team: team.slug, rows: 4 });
  });

  it("names an end cut off with the seal cleared, and audit:key --team signs none of it (attack review of team chains)", async () => {
    const { team } = await teamWithKeyChanges();
    expect(await verifyTeam(team.slug)).toMatchObject({ code: 0 }); // the control
    // Rows 3 and 4 (the replacement's creation and its revocation) cut, the head moved back, the seal cleared.
    const kept = await teamRows(team.id);
    await db.teamAuditEvent.deleteMany({ where: { teamId: team.id, seq: { gt: 2 } } });
    await db.team.update({ where: { id: team.id }, data: { auditSeq: 2, auditHash: kept[1]!.hash, auditSeal: "" } });
    const checked = await verifyTeam(team.slug);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain("the team's chain has 2 row(s) but no signature of the deployment's key");
    // The replacement's creation went with the cut: the key is named in the same answer.
    expect(checked.stderr).toContain(`has no "created" row in this team's log`);
    expect(checked.stderr).not.toContain("sign it with audit:key");
    const signing = await admin(["audit:key", "--team", team.slug]);
    expect(signing.code).toBe(1);
    expect(signing.stderr).toContain("signed nothing");
    expect((await db.team.findUniqueOrThrow({ where: { id: team.id } })).auditSeal).toBe("");
  });

  it("never offers an emptied chain for signing while a key made since has no row (attack review of team chains)", async () => {
    const { team } = await teamWithKeyChanges();
    await db.teamAuditEvent.deleteMany({ where: { teamId: team.id } });
    await db.team.update({ where: { id: team.id }, data: { auditSeq: 0, auditHash: "", auditSeal: "" } });
    const checked = await verifyTeam(team.slug);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(`has no "created" row in this team's log`);
    const signing = await admin(["audit:key", "--team", team.slug]);
    expect(signing.code).toBe(1);
    expect((await db.team.findUniqueOrThrow({ where: { id: team.id } })).auditSeal).toBe("");
  });

  it("starts a chain the previous release left unstarted before its first row: a personal team's commits to the account's head", async () => {
    const owner = await accountInTheApp();
    const team = await personalTeam(owner.userId);
    // As a team an instance of the previous release made during a rolling deploy: no seal, no rows.
    await db.team.update({ where: { id: team.id }, data: { auditSeal: "" } });
    expect((await verifyTeam(team.slug)).stderr).toContain("carries no signature"); // the control: unstarted
    const account = await db.user.findUniqueOrThrow({ where: { id: owner.userId } });
    const made = await createKey(
      { userId: owner.userId, ip: null, userAgent: "vitest" },
      { label: "first", environment: "dev", expiresAt: null },
    );
    const chain = await teamRows(team.id);
    expect(chain.map((row) => [row.seq, row.action, row.keyId])).toEqual([
      [1, "team.chain_started", null],
      [2, "key.created", made.key.id],
    ]);
    expect(JSON.parse(chain[0]!.details!)).toEqual({
      account_chain: { seq: account.auditSeq, hash: account.auditHash },
    });
    expect(await verifyTeam(team.slug)).toMatchObject({ code: 0, stderr: "" });
  });

  it("names a row edited directly in the database: who acted, or what it says", async () => {
    const { team } = await teamWithKeyChanges();
    const other = await accountInTheApp();
    const second = (await teamRows(team.id))[1]!;
    expect(await verifyTeam(team.slug)).toMatchObject({ code: 0 }); // the control
    // The rotation made to look as if another person did it: who acted is in the row's signature.
    await db.teamAuditEvent.update({ where: { id: second.id }, data: { actorId: other.userId } });
    const checked = await verifyTeam(team.slug);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(
      `team ${team.slug} (${team.id}): row 2 was changed, or a row before it: its signature no longer matches`,
    );

    await db.teamAuditEvent.update({ where: { id: second.id }, data: { actorId: second.actorId } });
    expect(await verifyTeam(team.slug)).toMatchObject({ code: 0 }); // put back, it holds again
    await db.teamAuditEvent.update({ where: { id: second.id }, data: { details: JSON.stringify({ grace: "7d" }) } });
    expect((await verifyTeam(team.slug)).stderr).toContain("row 2 was changed, or a row before it");
  });

  it("fails a row given a plain SHA-256 hash: every team row is keyed", async () => {
    const { team } = await teamWithKeyChanges();
    expect(await verifyTeam(team.slug)).toMatchObject({ code: 0 }); // the control
    // Row 3's content as it is, its hash replaced by the one a person without the key can compute.
    const [, second, third] = await teamRows(team.id);
    await db.teamAuditEvent.update({
      where: { id: third!.id },
      data: { hash: chainHash(second!.hash, teamChainId(team.id), third!) },
    });
    const checked = await verifyTeam(team.slug);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain("row 3 was changed: it is not signed with the deployment's key");

    // Nor does rewriting the whole chain that way, the head's hash moved too, pass as a chain from before the switch.
    await rewriteTeamWithoutKey(team.id, 1, { ip: "192.0.2.70" });
    expect((await verifyTeam(team.slug)).stderr).toContain(
      "row 1 was changed: it is not signed with the deployment's key",
    );
  });

  it("checks its export offline with the key, and names a row changed in it", async () => {
    const { team } = await teamWithKeyChanges();
    const exported = JSON.parse(JSON.stringify(await exportTeamChain(db, team.id)));
    expect(exported).toMatchObject({ format: "keyport.team-activity-chain.v1", teamId: team.id, slug: team.slug });
    expect(checkExport(JSON.stringify(exported), auditChainKey)).toEqual({
      owner: { team: team.slug },
      rows: 4,
      keyed: true,
      problem: null,
    });
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "keyport-team-")), "export.json");
    writeFileSync(file, JSON.stringify(exported));
    const checked = await admin(["audit:verify", "--file", file]);
    expect(checked.code).toBe(0);
    expect(JSON.parse(checked.stdout)).toEqual({ ok: true, file, team: team.slug, rows: 4, keyed: true });

    const tampered = (change: (json: typeof exported) => void) => {
      const copy = structuredClone(exported);
      change(copy);
      return checkExport(JSON.stringify(copy), auditChainKey).problem?.message;
    };
    // Who acted: the person's rotation made to look like the operator's.
    expect(tampered((json) => (json.rows[1].actorKind = "operator"))).toBe(
      "row 2 was changed, or a row before it: its signature no longer matches",
    );
    // A row changed and given the only hash one can compute without the key.
    expect(
      tampered((json) => {
        json.rows[2].ip = "192.0.2.71";
        json.rows[2].hash = chainHash(json.rows[1].hash, teamChainId(team.id), json.rows[2]);
      }),
    ).toBe("row 3 was changed: it is not signed with the deployment's key");
    // Rows of one team's chain do not pass as another's: the chain's name is in every hash.
    const elsewhere = await personalTeam((await accountInTheApp()).userId);
    expect(tampered((json) => (json.teamId = elsewhere.id))).toBe(
      "row 1 was changed, or a row before it: its signature no longer matches",
    );
  });
});
