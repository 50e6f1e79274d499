// Account rows linked before this release hold GitHub's tokens in clear. The
// migration account_tokens_cleared empties them, on a database the previous
// release's migrations made and its adapter filled (played here in raw SQL),
// and leaves the rest of each row as it was.
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { databaseMigratedUpTo, rawSql } from "../helpers/earlier-release";
import { prismaCli } from "../helpers/test-database";

// The last migration before the one under test.
const PREVIOUS_RELEASE_LAST = "20261126211140_usage_error_hourly";

const database = await databaseMigratedUpTo(PREVIOUS_RELEASE_LAST);

afterAll(() => database.drop());

const linked = {
  id: "acc-github",
  userId: "u-github",
  type: "oauth",
  provider: "github",
  providerAccountId: "583231",
  // Shaped as GitHub's, made here so no token-shaped string sits in the repository.
  access_token: `gho_${randomBytes(18).toString("hex")}`,
  refresh_token: `ghr_${randomBytes(38).toString("hex")}`,
  expires_at: 1_795_000_000,
  token_type: "bearer",
  scope: "read:user,user:email",
  id_token: `eyJhbGciOiJSUzI1NiJ9.${randomBytes(48).toString("base64url")}.${randomBytes(64).toString("base64url")}`,
  session_state: randomBytes(16).toString("hex"),
};
const TOKENS = ["access_token", "refresh_token", "id_token", "session_state"] as const;

describe(`clearing stored GitHub tokens, on ${database.provider}`, () => {
  it("empties the token columns of existing Account rows and keeps the rest of them", async () => {
    await rawSql(database.url, 'INSERT INTO "User" ("id", "email", "updatedAt") VALUES (?, ?, ?)', [
      linked.userId,
      "octocat@example.com",
      new Date().toISOString(),
    ]);
    const columns = Object.keys(linked);
    await rawSql(
      database.url,
      `INSERT INTO "Account" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
      Object.values(linked),
    );
    // The control: before the migration, the row holds the tokens as the previous release stored them.
    expect(await rawSql(database.url, 'SELECT * FROM "Account"')).toEqual([linked]);

    await prismaCli(["migrate", "deploy"], database.url);

    const rows = await rawSql(database.url, 'SELECT * FROM "Account"');
    expect(rows).toEqual([{ ...linked, access_token: null, refresh_token: null, id_token: null, session_state: null }]);
    const stored = JSON.stringify(rows);
    for (const field of TOKENS) expect(stored, field).not.toContain(linked[field]);
    const users = await rawSql(database.url, 'SELECT "id", "email" FROM "User"');
    expect(users).toEqual([{ id: linked.userId, email: "octocat@example.com" }]);
    const status = await prismaCli(["migrate", "status"], database.url);
    expect(status.stdout).toMatch(/Database schema is up to date!/);
  }, 120_000);
});
