// One migrated database for the whole integration run; the test files reach
// it through DATABASE_URL, like the app does.
import { rmSync } from "node:fs";
import path from "node:path";
import { createMigratedTestDatabase, type TestDatabase } from "./test-database";

let database: TestDatabase | undefined;

export async function setup() {
  rmSync(path.join(import.meta.dirname, "..", "..", ".test-logs", "integration.log"), { force: true });
  database = await createMigratedTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET ??= "integration-tests-secret-0123456789abcdef";
  process.env.ENCRYPTION_KEY ??= Buffer.alloc(32, 7).toString("base64");
  console.log(`integration tests on ${database.provider}`);
}

export async function teardown() {
  await database?.drop();
}
