import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isTestDatabaseUrl, testHashingAllowed, testModeProblem } from "@/lib/auth/test-hashing";

// A temporary folder of its own, standing in for the system's, with the
// folders and links each case needs: the check follows links, so they exist.
const tmp = mkdtempSync(path.join(os.tmpdir(), "hashing-root-"));
for (const folder of ["keyport-test-Ab12Cd/nested", "keyport-e2e-x9Y8z7", "keyport-dev-Ab12Cd", "data/inner"]) {
  mkdirSync(path.join(tmp, folder), { recursive: true });
}
// A test-looking name that leads to a real data folder, and a link inside a test folder whose ".." leaves it.
symlinkSync(path.join(tmp, "data"), path.join(tmp, "keyport-test-Link01"));
symlinkSync(path.join(tmp, "data", "inner"), path.join(tmp, "keyport-test-Ab12Cd", "up"));
// A real database, and a test folder whose database file is a link to it, or a hard link (found by an attack review).
writeFileSync(path.join(tmp, "data", "keyport.db"), "");
mkdirSync(path.join(tmp, "keyport-test-Files1"));
symlinkSync(path.join(tmp, "data", "keyport.db"), path.join(tmp, "keyport-test-Files1", "linked.db"));
linkSync(path.join(tmp, "data", "keyport.db"), path.join(tmp, "keyport-test-Files1", "hard.db"));
writeFileSync(path.join(tmp, "keyport-test-Files1", "own.db"), "");
// Third round: a link whose name ends in a query string, and one a URL with a space after it names once trimmed.
symlinkSync(path.join(tmp, "data", "keyport.db"), path.join(tmp, "keyport-test-Files1", "query.db?x"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("which databases count as the test suite's own", () => {
  it.each([
    `file:${tmp}/keyport-test-Ab12Cd/test.db`,
    `file:${tmp}/keyport-test-Ab12Cd/worker-3.db`,
    `file:${tmp}/keyport-e2e-x9Y8z7/e2e.db`,
    `file:${tmp}/keyport-e2e-x9Y8z7/e2e.db?mode=rwc`,
    // The control for the links below: a database file of the folder's own.
    `file:${tmp}/keyport-test-Files1/own.db`,
    "postgresql://postgres:postgres@127.0.0.1:5432/keyport_test_0a1b2c3d4e5f",
    "postgres://postgres@localhost/keyport_test_0a1b2c3d4e5f_w2",
  ])("%s is", (url) => expect(isTestDatabaseUrl(url, tmp)).toBe(true));

  it.each([
    "file:./data/keyport.db",
    "file:/var/lib/keyport/keyport.db",
    `file:${tmp}/keyport.db`,
    `file:${tmp}/keyport-dev-Ab12Cd/dev.db`,
    `file:${tmp}/keyport-test-Ab12Cd/nested/test.db`,
    `file:${tmp}/keyport-test-Missing/test.db`,
    "file:/srv/keyport-test-Ab12Cd/test.db",
    `file:${tmp}/keyport-test-Ab12Cd/../keyport.db`,
    // Links are followed as SQLite follows them.
    `file:${tmp}/keyport-test-Link01/keyport.db`,
    `file:${tmp}/keyport-test-Ab12Cd/up/../keyport.db`,
    `file:${tmp}/keyport-test-Files1/linked.db`,
    `file:${tmp}/keyport-test-Files1/hard.db`,
    `file:${tmp}/keyport-test-Files1/query.db?x`,
    `file:${tmp}/keyport-test-Files1/linked.db `,
    ` file:${tmp}/keyport-test-Files1/linked.db`,
    "postgresql://postgres@127.0.0.1:5432/keyport",
    "postgresql://postgres@db.example.com:5432/keyport_test_0a1b",
    "postgresql://postgres@localhost/keyport_test_0a1b?host=db.internal",
    "postgresql://postgres@localhost/prod_keyport_test_0a1b",
    "not a url",
  ])("%s is not", (url) => expect(isTestDatabaseUrl(url, tmp)).toBe(false));

  it("takes no test database from a relative temporary folder", () => {
    const relative = path.relative(process.cwd(), tmp);
    expect(isTestDatabaseUrl(`file:${tmp}/keyport-test-Ab12Cd/test.db`, relative)).toBe(false);
    // Control: the same folder, named absolutely.
    expect(isTestDatabaseUrl(`file:${tmp}/keyport-test-Ab12Cd/test.db`, tmp)).toBe(true);
  });
});

describe("test mode", () => {
  const testFolder = mkdtempSync(path.join(os.tmpdir(), "keyport-test-"));
  afterAll(() => rmSync(testFolder, { recursive: true, force: true }));
  const testDb = `file:${path.join(testFolder, "test.db")}`;
  const prodDb = "postgresql://keyport@127.0.0.1/keyport";

  it("allows cheap hashing only with the switch and a test database together", () => {
    expect(testHashingAllowed({ KEYPORT_TEST_MODE: "1", DATABASE_URL: testDb })).toBe(true);
    expect(testHashingAllowed({ KEYPORT_TEST_MODE: "1", DATABASE_URL: prodDb })).toBe(false);
    expect(testHashingAllowed({ DATABASE_URL: testDb })).toBe(false);
    expect(testHashingAllowed({ KEYPORT_TEST_MODE: "0", DATABASE_URL: testDb })).toBe(false);
    expect(testHashingAllowed({ KEYPORT_TEST_MODE: "1" })).toBe(false);
  });

  it("names the problem when the switch is on outside a test database, and only then", () => {
    expect(testModeProblem({ KEYPORT_TEST_MODE: "1", DATABASE_URL: prodDb })).toMatch(
      /^KEYPORT_TEST_MODE=1 is only for/,
    );
    expect(testModeProblem({ KEYPORT_TEST_MODE: "1" })).toMatch(/^KEYPORT_TEST_MODE=1 is only for/);
    expect(testModeProblem({ DATABASE_URL: prodDb })).toBeUndefined();
  });
});
