// The test suite creates hundreds of accounts; production-strength Argon2 (19
// MiB, 2 passes per hash) made that a large share of its time. Cheaper
// parameters are allowed only when two things hold together: the operator of
// the process said so (KEYPORT_TEST_MODE=1), and the database is a throw-away
// one that the test helpers made, which no real account can live in:
// - SQLite: a file in a folder named keyport-test-* or keyport-e2e-* directly
//   in the system's temporary folder (tests/helpers/test-database.ts,
//   playwright.config.ts);
// - PostgreSQL: a database named keyport_test_* on this machine.
// KEYPORT_TEST_MODE=1 with any other database stops start-up
// (lib/startup-check.ts), so a test setting copied into production fails loudly
// instead of being ignored.
import { lstatSync, realpathSync } from "node:fs";
import { databaseTarget, sqliteFile } from "../db-target";
import os from "node:os";
import path from "node:path";

const TEST_FOLDER = /^keyport-(test|e2e)-[A-Za-z0-9]+$/;
const TEST_DATABASE_NAME = /^keyport_test_[a-z0-9_]+$/;
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether a DATABASE_URL names a database the test helpers made. */
export function isTestDatabaseUrl(rawUrl: string, tmpdir = os.tmpdir()): boolean {
  const url = rawUrl.trim();
  if (url.startsWith("file:")) {
    // Exactly the path the app opens (lib/db-target.ts: the URL trimmed, a
    // relative path taken from the working directory, anything after "?" part
    // of the name): checking another path let a link named "keyport.db?x", or
    // a URL with a space after it, lead to a real database (an attack review).
    // Its folder where it really leads, as SQLite will open it: links followed
    // and ".." taken after them (a link named keyport-test-x to a real data
    // folder, or keyport-test-x/link/.., must not pass). A folder that does not
    // exist holds no test database.
    const file = sqliteFile(databaseTarget(url, process.cwd()).url, process.cwd());
    const folder = realFolder(path.dirname(file));
    const temporary = realFolder(tmpdir);
    return (
      !!folder &&
      fileStaysIn(file) &&
      !!temporary &&
      path.isAbsolute(tmpdir) &&
      path.dirname(folder) === temporary &&
      TEST_FOLDER.test(path.basename(folder))
    );
  }
  try {
    const parsed = new URL(url);
    if (!/^postgres(ql)?:$/.test(parsed.protocol) || parsed.searchParams.has("host")) return false;
    return LOCAL_HOSTS.has(parsed.hostname) && TEST_DATABASE_NAME.test(decodeURIComponent(parsed.pathname.slice(1)));
  } catch {
    return false;
  }
}

/**
 * The database file itself, where it exists: not a link out of the folder (a
 * link named keyport.db in a test folder to a real database), and not a hard
 * link, which is the same file as a real database by another name.
 */
function fileStaysIn(file: string): boolean {
  let stat;
  try {
    stat = lstatSync(file);
  } catch {
    return true; // not made yet: the test helpers make it in the folder checked above
  }
  if (stat.isSymbolicLink()) return false;
  return stat.isFile() && stat.nlink === 1;
}

function realFolder(folder: string): string | undefined {
  try {
    // The native realpath(3): it follows each link before the next "..", as the OS does; the JS one tidies first.
    return realpathSync.native(folder);
  } catch {
    return undefined;
  }
}

type Source = Record<string, string | undefined>;

/** Whether test-strength password hashing may be used: test mode on, and a test database. */
export function testHashingAllowed(source: Source = process.env): boolean {
  return source.KEYPORT_TEST_MODE === "1" && isTestDatabaseUrl(source.DATABASE_URL ?? "");
}

/** Why this environment must not start, when test mode is on outside a test database. */
export function testModeProblem(source: Source = process.env): string | undefined {
  if (source.KEYPORT_TEST_MODE !== "1" || testHashingAllowed(source)) return undefined;
  return (
    "KEYPORT_TEST_MODE=1 is only for the test suite's throw-away databases (a SQLite file in a keyport-test-* " +
    "or keyport-e2e-* folder in the temporary folder, or a local PostgreSQL database named keyport_test_*): " +
    "unset it to run with this DATABASE_URL"
  );
}
