// The tamper-evident activity log: rows chained by SHA-256 per account, the
// head on the account row, checked by the operator CLI from the database and
// from the activity page's export, and the release's backfill of old rows. An
// account's chain holds its person's own account events (sign-ins, password
// changes...); key events go to the key's team chain (audit-chain-keyed.test.ts).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { accountRows as rows } from "../helpers/account-rows";
import { adminInProcess } from "../helpers/admin-in-process";
import { request } from "../helpers/next-request";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);

const { GET } = await import("@/app/(dashboard)/dashboard/activity/chain.json/route");
const { recordAudit } = await import("@/lib/audit");
const { createAccount } = await import("@/lib/auth/accounts");
const { changePassword } = await import("@/lib/auth/password-change");
const { createSession } = await import("@/lib/auth/session-store");
const { db } = await import("@/lib/db");
const { createKey } = await import("@/lib/keys/lifecycle");

let counter = 0;
const PASSWORD = "a long enough password";

/** What accountWithHistory leaves in the account's chain, row 1 first. */
const HISTORY = ["auth.sign_in", "auth.sign_in", "auth.password_changed", "auth.sessions_ended", "auth.sign_in"];

/**
 * An account with a real history of its own, through the app's functions: a
 * sign-in on a laptop and one on a phone, the password changed on the laptop
 * (which ends the phone's session), and the phone signed in again.
 */
async function accountWithHistory() {
  const email = `chain-${Date.now()}-${counter++}@example.com`;
  const created = await createAccount(email, PASSWORD);
  if (!created.ok) throw new Error(created.error);
  const userId = created.userId;
  const laptop = await createSession(userId, "203.0.113.7", "vitest laptop");
  await createSession(userId, "203.0.113.8", "vitest phone");
  const changed = await changePassword({
    actor: { userId, ip: "203.0.113.7", userAgent: "vitest laptop" },
    email,
    keepSessionId: laptop.id,
    currentPassword: PASSWORD,
    newPassword: "another long enough password",
  });
  if (!changed.ok) throw new Error(changed.error);
  await createSession(userId, "203.0.113.8", "vitest phone");
  return { email, userId };
}

const admin = adminInProcess;
const verify = (email: string) => admin(["audit:verify", "--email", email]);

describe("the activity chain in the database", () => {
  it("numbers each account's rows 1, 2, 3... and chains them; audit:verify passes on a real history", async () => {
    const { email, userId } = await accountWithHistory();
    // A key change is not an account event: its row goes to the personal team's chain, not this one.
    const made = await createKey(
      { userId, ip: "203.0.113.7", userAgent: "vitest laptop" },
      { label: "billing", environment: "prod", expiresAt: null },
    );
    expect(await db.teamAuditEvent.count({ where: { keyId: made.key.id, action: "key.created" } })).toBe(1);
    const history = await rows(userId);
    expect(history.map((row) => row.action)).toEqual(HISTORY);
    expect(history.map((row) => row.seq)).toEqual([1, 2, 3, 4, 5]);
    // Signed with the key derived from ENCRYPTION_KEY, the head too (naming the row it signs).
    for (const row of history) expect(row.hash).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
    expect(user.auditSeq).toBe(history.length);
    expect(user.auditHash).toBe(history.at(-1)!.hash);
    expect(user.auditSeal).toMatch(new RegExp(`^hmac-sha256:${history.length}:[0-9a-f]{64}$`));

    const checked = await verify(email);
    expect(checked).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(checked.stdout)).toEqual({ ok: true, accounts: 1, rows: history.length });
  });

  it("does not fork under concurrent writes: every row gets its own number and the chain holds", async () => {
    const { email, userId } = await accountWithHistory();
    const before = (await rows(userId)).length;
    const actor = { userId, ip: null, userAgent: "vitest" };
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        db.$transaction((tx) => recordAudit(tx, actor, "auth.sessions_ended", null, { count: i })),
      ),
    );
    expect((await rows(userId)).map((row) => row.seq)).toEqual(Array.from({ length: before + 12 }, (_, i) => i + 1));
    expect((await verify(email)).code).toBe(0);
  });

  it("names the row that was edited directly in the database", async () => {
    const { email, userId } = await accountWithHistory();
    expect(await verify(email)).toMatchObject({ code: 0 }); // the control
    // The password change made to look as if it came from another address.
    await db.auditEvent.update({ where: { userId_seq: { userId, seq: 3 } }, data: { ip: "198.51.100.66" } });
    const checked = await verify(email);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(`${email} (${userId}): row 3 was changed`);
  });

  it("names a row deleted from the middle", async () => {
    const { email, userId } = await accountWithHistory();
    expect(await verify(email)).toMatchObject({ code: 0 }); // the control
    // The phone's first sign-in hidden.
    await db.auditEvent.delete({ where: { userId_seq: { userId, seq: 2 } } });
    const checked = await verify(email);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain("row 2 was removed (the next row is 3)");
  });

  it("names the last row when it is deleted, since the head still names it", async () => {
    const { email, userId } = await accountWithHistory();
    expect(await verify(email)).toMatchObject({ code: 0 }); // the control
    const last = (await rows(userId)).at(-1)!;
    expect(last.seq).toBe(HISTORY.length);
    await db.auditEvent.delete({ where: { id: last.id } });
    const checked = await verify(email);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(`row ${last.seq} was removed from the end (the head names row ${last.seq})`);
  });

  it("notices a row whose hash was recomputed after an edit: the next row's hash no longer follows", async () => {
    const { email, userId } = await accountWithHistory();
    const { chainHash } = await import("@/lib/audit-chain");
    expect(await verify(email)).toMatchObject({ code: 0 }); // the control
    // Row 2 (the phone's sign-in) edited, and given the hash one can compute without the key: it passes itself.
    const [first, second] = await rows(userId);
    const edited = { ...second!, ip: "198.51.100.67" };
    await db.auditEvent.update({
      where: { id: second!.id },
      data: { ip: edited.ip, hash: chainHash(first!.hash, userId, edited) },
    });
    const checked = await verify(email);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain("row 3 was changed, or a row before it: its signature no longer matches");
  });

  it("chains rows written before the chain existed, once (the release's backfill)", async () => {
    const { email, userId } = await accountWithHistory();
    expect(await verify(email)).toMatchObject({ code: 0 }); // the control
    // As the migration leaves them: numbered, hashes empty, the head's hash and seal empty.
    await db.auditEvent.updateMany({ where: { userId }, data: { hash: "" } });
    await db.user.update({ where: { id: userId }, data: { auditHash: "", auditSeal: "" } });
    expect((await verify(email)).code).toBe(1);

    const backfilled = await admin(["audit:backfill"]);
    expect(backfilled.code).toBe(0);
    expect(JSON.parse(backfilled.stdout).chained_accounts).toBeGreaterThanOrEqual(1);
    // Chained with SHA-256, as before the switch; db:deploy's upgrade run, or a person, signs the head.
    expect((await verify(email)).stderr).toContain("carries no signature of the deployment's key");
    expect(await admin(["audit:key", "--email", email])).toMatchObject({
      code: 0,
      stdout: '{"signed_accounts":1,"signed_teams":0}\n',
    });
    expect((await verify(email)).code).toBe(0);
    expect(JSON.parse((await admin(["audit:backfill"])).stdout)).toEqual({ chained_accounts: 0 });
  });

  it("never re-signs a chained account: a row whose hash was blanked stays reported", async () => {
    const { email, userId } = await accountWithHistory();
    expect(await verify(email)).toMatchObject({ code: 0 }); // the control
    // The sessions the password change ended, edited, its hash blanked as if never chained.
    await db.auditEvent.update({
      where: { userId_seq: { userId, seq: 4 } },
      data: { ip: "198.51.100.68", hash: "" },
    });
    const backfilled = await admin(["audit:backfill"]);
    expect(backfilled.code).toBe(1);
    expect(backfilled.stderr).toContain(`refused 1 whose rows are partly chained (run audit:verify): ${userId}`);
    const checked = await verify(email);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain("row 4 was changed");
    // Put back as the backfill found it, so the next test's backfill has nothing to refuse.
    await db.auditEvent.deleteMany({ where: { userId } });
  });
});

describe("the activity page's export", () => {
  async function download(userId: string) {
    const { sessionToken } = await createSession(userId, "192.0.2.1", "vitest");
    request.cookies = new Map([["keyport.session", sessionToken]]);
    const response = await GET(new Request("http://localhost/dashboard/activity/chain.json"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="keyport-activity-/);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "keyport-chain-")), "export.json");
    writeFileSync(file, await response.text());
    return file;
  }

  it("checks offline, and names the row edited in the file", async () => {
    const { email, userId } = await accountWithHistory();
    const file = await download(userId);
    const exported = JSON.parse(readFileSync(file, "utf8"));
    // The account's own events, the download's sign-in last.
    expect(exported.rows.map((row: { action: string }) => row.action)).toEqual([...HISTORY, "auth.sign_in"]);
    expect(exported.head.hash).toBe(exported.rows.at(-1).hash);
    const checked = await admin(["audit:verify", "--file", file]);
    expect(checked.code).toBe(0);
    expect(JSON.parse(checked.stdout)).toEqual({ ok: true, file, email, rows: HISTORY.length + 1, keyed: true });

    // The second sign-in made to look like something else.
    exported.rows[1].action = "auth.two_factor_enabled";
    writeFileSync(file, JSON.stringify(exported));
    const edited = await admin(["audit:verify", "--file", file]);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain("row 2 was changed");

    exported.rows[1].action = (await rows(userId))[1]!.action;
    exported.rows.pop();
    writeFileSync(file, JSON.stringify(exported));
    expect((await admin(["audit:verify", "--file", file])).stderr).toContain("removed from the end");
  });

  it("refuses a request with an API key and one without a session", async () => {
    request.cookies = new Map();
    expect((await GET(new Request("http://localhost/dashboard/activity/chain.json"))).status).toBe(401);
    const keyed = await GET(
      new Request("http://localhost/dashboard/activity/chain.json", { headers: { "x-api-key": "sk_dev_x" } }),
    );
    expect(keyed.status).toBe(403);
  });

  it("tells a file that is not an export apart from a broken chain", async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "keyport-chain-")), "other.json");
    writeFileSync(file, JSON.stringify({ hello: "world" }));
    const checked = await admin(["audit:verify", "--file", file]);
    expect(checked.code).toBe(2);
    expect(checked.stderr).toContain("not a Keyport activity export");
  });
});
