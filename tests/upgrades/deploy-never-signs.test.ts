// npm run db:deploy never signs an activity chain (scripts/db-deploy.mts):
// the switch to a keyed chain is the operator's own step, since nothing in
// the database tells a chain from before the switch from one rewritten
// without the key and its seal cleared, not even which migrations the
// database says it has applied (an attack review deleted one and dropped its
// column, and db:deploy re-applied it and signed). On a database the release
// before the keyed chain made and filled, as session-token-migration.test.ts.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { databaseMigratedUpTo, rawSql } from "../helpers/earlier-release";
import { projectRoot, type TestDatabase } from "../helpers/test-database";

// The case starts `db:deploy` (tsx and prisma) four times: 66 s alone on 2 cores, 144 s on PostgreSQL in a full CI run
// on a slower machine of the same kind. Its 300 s limit is for a hang, not for speed.
const run = promisify(execFile);
// The last migration of the release before hashed session tokens and the keyed chain.
const PREVIOUS_RELEASE_LAST = "20261124010000_key_version_trigger";
const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const database of databases) await database.drop();
});

async function dbDeploy(url: string, ...flags: string[]) {
  const { stdout } = await run(
    path.join(projectRoot, "node_modules", ".bin", "tsx"),
    [path.join(projectRoot, "scripts", "db-deploy.mts"), ...flags],
    { cwd: projectRoot, env: { ...process.env, DATABASE_URL: url } },
  );
  return stdout;
}

describe("db:deploy and the activity chain", () => {
  it("never signs an activity chain: the operator's audit:key does, once; a seal cleared later stays cleared", async () => {
    const upgraded = await databaseMigratedUpTo(PREVIOUS_RELEASE_LAST);
    databases.push(upgraded);
    const now = new Date().toISOString();
    await rawSql(upgraded.url, 'INSERT INTO "User" ("id", "email", "updatedAt", "auditSeq") VALUES (?, ?, ?, ?)', [
      "u-chain",
      "chain@x.example",
      now,
      2,
    ]);
    // Two rows as the release before the chain left them (numbered, hashes empty): audit:backfill chains them.
    for (const seq of [1, 2]) {
      await rawSql(
        upgraded.url,
        'INSERT INTO "AuditEvent" ("id", "userId", "seq", "action", "createdAt") VALUES (?, ?, ?, ?, ?)',
        [`e${seq}`, "u-chain", seq, "auth.sign_in", now],
      );
    }
    const seal = async () =>
      (await rawSql(upgraded.url, 'SELECT "auditSeal" FROM "User" WHERE "id" = ?', ["u-chain"]))[0]!.auditSeal;

    await dbDeploy(upgraded.url, "--no-old-instances");
    expect(await seal()).toBe("");
    // The switch is the operator's own step (docs/operations.md); the control: this test sees a seal when there is one.
    await run(
      path.join(projectRoot, "node_modules", ".bin", "tsx"),
      ["--conditions=react-server", path.join(projectRoot, "scripts", "admin.mts"), "audit:key"],
      { cwd: projectRoot, env: { ...process.env, DATABASE_URL: upgraded.url } },
    );
    expect(await seal()).toMatch(/^hmac-sha256:2:[0-9a-f]{64}$/);

    // Later, someone without the key clears the seal (after rewriting the rows as plain SHA-256, which this needs not
    // repeat), and makes the keyed chain's migration look pending (found by an attack review: db:deploy then re-applied
    // it and signed). No release step signs it.
    await rawSql(upgraded.url, 'UPDATE "User" SET "auditSeal" = ? WHERE "id" = ?', ["", "u-chain"]);
    await rawSql(upgraded.url, 'DELETE FROM "_prisma_migrations" WHERE "migration_name" = ?', [
      "20261126205248_audit_chain_seal",
    ]);
    await rawSql(upgraded.url, 'ALTER TABLE "User" DROP COLUMN "auditSeal"');
    await dbDeploy(upgraded.url);
    expect(await seal()).toBe("");
  }, 300_000);
});
