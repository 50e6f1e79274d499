// Session tokens move from Session.sessionToken (the cookie's value in clear)
// to Session.tokenHash (its SHA-256) across a rolling deploy, on a database
// the previous release's migrations made and its code filled. The first
// `npm run db:deploy` applies session_token_hash, hashes in JavaScript and
// holds drop_session_token back; meanwhile this release and the previous one
// run side by side (the previous one played here in raw SQL, as its code
// wrote it); the second run drops the old column, and every session works.
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { databaseMigratedUpTo, rawSql } from "../helpers/earlier-release";
import { createTestDatabase, projectRoot, type TestDatabase } from "../helpers/test-database";

// Each case below starts several `prisma` and `tsx` processes: about 60 s alone on 2 cores, over 120 s while another
// heavy job shares the machine (CI failed there once, on PostgreSQL). Their 300 s limit is for a hang, not for speed.
const run = promisify(execFile);
// The last migration of the release before hashed session tokens.
const PREVIOUS_RELEASE_LAST = "20261124010000_key_version_trigger";
const CONTRACT = "20261126200445_drop_session_token";
const sha256 = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");
const newToken = () => randomBytes(32).toString("base64url");

/** A database as the previous release left it: its migrations only. */
const previousReleaseDatabase = () => databaseMigratedUpTo(PREVIOUS_RELEASE_LAST);

async function dbDeploy(url: string, ...flags: string[]) {
  // Prisma's schema engine migrates SQLite under an exclusive lock (PRAGMA
  // locking_mode=EXCLUSIVE): there the app lets go of the file while
  // db:deploy runs (docs/operations.md). PostgreSQL migrates beside open connections.
  if (url === process.env.DATABASE_URL && url.startsWith("file:")) await db.$disconnect();
  const { stdout } = await run(
    path.join(projectRoot, "node_modules", ".bin", "tsx"),
    [path.join(projectRoot, "scripts", "db-deploy.mts"), ...flags],
    { cwd: projectRoot, env: { ...process.env, DATABASE_URL: url } },
  );
  return stdout;
}

// This file's own database: this release's code (lib/) runs on it from here on.
const database = await previousReleaseDatabase();
process.env.DATABASE_URL = database.url;
// This file's runtime, on that database (tests build their own: lib/runtime/create-runtime.ts).
{
  const { createRuntime } = await import("@/lib/runtime/create-runtime");
  const { publishRuntime } = await import("@/lib/runtime/runtime");
  const { getEnv } = await import("@/lib/env");
  publishRuntime(createRuntime({ ...getEnv(), DATABASE_URL: database.url }));
}
const { createSession, deleteSessionByToken, endOtherSessions, endedSessionNotice, readSession } =
  await import("@/lib/auth/session-store");
const { db } = await import("@/lib/db");
const others: TestDatabase[] = [];

afterAll(async () => {
  await db.$disconnect();
  for (const other of [database, ...others]) await other.drop();
});

/** An account as the previous release made it, in SQL: its User lacks columns this release added (auditSeal). */
async function previousReleaseUser(email: string) {
  const id = `old-user-${randomBytes(6).toString("hex")}`;
  await db.$executeRaw`INSERT INTO "User" ("id", "email", "updatedAt") VALUES (${id}, ${email}, ${new Date()})`;
  return { id };
}

/** What an instance of the previous release did at sign-in: the token in clear, and nothing else. */
async function previousReleaseSignIn(userId: string) {
  const token = newToken();
  const now = new Date();
  const id = `old-${randomBytes(6).toString("hex")}`;
  await db.$executeRaw`INSERT INTO "Session" ("id", "sessionToken", "userId", "expires", "createdAt", "lastSeenAt", "verifiedAt")
    VALUES (${id}, ${token}, ${userId}, ${new Date(now.getTime() + 86_400_000)}, ${now}, ${now}, ${now})`;
  return { id, token };
}

/** What the previous release's session lookup did: by the token in clear. */
async function previousReleaseFinds(token: string): Promise<boolean> {
  const rows = await db.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Session" WHERE "sessionToken" = ${token}`;
  return rows.length === 1;
}

async function sessionColumns(): Promise<string[]> {
  const rows =
    database.provider === "sqlite"
      ? await db.$queryRaw<{ name: string }[]>`SELECT name FROM pragma_table_info('Session')`
      : await db.$queryRaw<{ name: string }[]>`SELECT column_name AS name FROM information_schema.columns
          WHERE table_name = 'Session' AND table_schema = current_schema()`;
  return rows.map((row) => row.name);
}

describe(`hashed session tokens, on ${database.provider}`, () => {
  it("keep every session working through a rolling deploy, then no token is left in clear", async () => {
    const owner = await previousReleaseUser("owner@example.com");
    const colleague = await previousReleaseUser("colleague@example.com");
    const before = await previousReleaseSignIn(owner.id);
    const colleagues = [await previousReleaseSignIn(colleague.id), await previousReleaseSignIn(colleague.id)];

    // Deploy, first run: the new column, filled in JavaScript; the old one stays for the old instances.
    expect(await dbDeploy(database.url)).toContain(`held back ${CONTRACT}`);
    expect(await sessionColumns()).toEqual(expect.arrayContaining(["sessionToken", "tokenHash"]));
    const filled = await db.$queryRaw<
      { tokenHash: string }[]
    >`SELECT "tokenHash" FROM "Session" WHERE "id" = ${before.id}`;
    expect(filled).toEqual([{ tokenHash: sha256(before.token) }]);

    // Both releases side by side.
    expect(await readSession(before.token)).toMatchObject({ id: before.id, userId: owner.id });
    expect(await previousReleaseFinds(before.token)).toBe(true);
    const made = await createSession(owner.id, "192.0.2.1", "vitest");
    expect(await previousReleaseFinds(made.sessionToken)).toBe(true);
    const byOld = await previousReleaseSignIn(owner.id);
    expect(await readSession(byOld.token)).toMatchObject({ id: byOld.id });
    const signedOut = await previousReleaseSignIn(owner.id);
    await deleteSessionByToken(signedOut.token);
    expect(await readSession(signedOut.token)).toBeNull();
    // Ending sessions meets rows the old instances made, unhashed: each still leaves its notice.
    const unhashed = await previousReleaseSignIn(colleague.id);
    const keep = await createSession(colleague.id, "192.0.2.2", "vitest");
    expect(await endOtherSessions({ userId: colleague.id, ip: null, userAgent: null }, keep.id)).toBe(3);
    for (const ended of [...colleagues, unhashed]) {
      expect(await readSession(ended.token)).toBeNull();
      expect(await endedSessionNotice(ended.token)).toMatchObject({ reason: "all_others_ended" });
    }
    const late = await previousReleaseSignIn(owner.id);

    // Second run, once no old instance is left: the old column is emptied and dropped.
    expect(await dbDeploy(database.url)).not.toContain("held back");
    expect(await sessionColumns()).not.toContain("sessionToken");
    for (const { token, id } of [before, byOld, late, { token: made.sessionToken, id: made.id }]) {
      expect(await readSession(token), id).toMatchObject({ id });
    }
    // This release keeps working without the old column.
    const after = await createSession(owner.id, "192.0.2.3", "vitest");
    expect(await readSession(after.sessionToken)).toMatchObject({ id: after.id });
    await deleteSessionByToken(after.sessionToken);
    expect(await readSession(after.sessionToken)).toBeNull();

    const stored = JSON.stringify(await db.$queryRaw`SELECT * FROM "Session"`);
    for (const token of [before.token, byOld.token, late.token, made.sessionToken, keep.sessionToken]) {
      expect(stored).not.toContain(token);
    }
    expect(stored).toContain(sha256(before.token));
  }, 300_000);

  it("applies both migrations in one run where nothing of the previous release runs", async () => {
    const fresh = await createTestDatabase();
    others.push(fresh);
    expect(await dbDeploy(fresh.url)).not.toContain("held back");
    const upgraded = await previousReleaseDatabase();
    others.push(upgraded);
    const token = newToken();
    const now = new Date().toISOString();
    await rawSql(upgraded.url, 'INSERT INTO "User" ("id", "email", "updatedAt") VALUES (?, ?, ?)', [
      "u1",
      "a@x.example",
      now,
    ]);
    await rawSql(
      upgraded.url,
      'INSERT INTO "Session" ("id", "sessionToken", "userId", "expires", "createdAt", "lastSeenAt", "verifiedAt") VALUES (?, ?, ?, ?, ?, ?, ?)',
      ["s1", token, "u1", now, now, now, now],
    );
    expect(await dbDeploy(upgraded.url, "--no-old-instances")).not.toContain("held back");
    // Hashed between the two migrations, so the session outlives the second.
    expect(await rawSql(upgraded.url, 'SELECT * FROM "Session"')).toEqual([
      expect.objectContaining({ id: "s1", tokenHash: sha256(token) }),
    ]);
    expect(JSON.stringify(await rawSql(upgraded.url, 'SELECT * FROM "Session"'))).not.toContain(token);
    const status = await run(path.join(projectRoot, "node_modules", ".bin", "prisma"), ["migrate", "status"], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_URL: upgraded.url },
    });
    expect(status.stdout).toMatch(/Database schema is up to date!/);
  }, 300_000);
});
