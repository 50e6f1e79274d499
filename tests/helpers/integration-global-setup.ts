// One migrated template database for the whole run; each test worker copies it
// once (tests/helpers/worker-database.ts), so files run in parallel without
// sharing rows. The template's URL reaches the workers through the
// environment, like DATABASE_URL reaches the app.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { INTEGRATION_LOG, runMarker } from "./integration-log";
import { createMigratedTestDatabase, dropWorkerDatabases, type TestDatabase } from "./test-database";

// Vitest calls this once per project, all in one process: in CI's PostgreSQL pass
// the integration and upgrade projects share one command, and so share what
// the first call made (it reaches them through the environment, like every
// worker), which that call's module drops at the end.
let template: TestDatabase | undefined;
let filesRoot: string | undefined;

export async function setup(project: TestProject) {
  if (process.env.KEYPORT_TEST_TEMPLATE_URL) return;
  // A fresh log, opened with this run's name: the scan that follows the
  // integration files (tests/after-integration/) checks it read this run's.
  // The services project, which CI runs beside the integration tests in a
  // command of its own, must not reopen it.
  const run = randomBytes(8).toString("hex");
  process.env.KEYPORT_INTEGRATION_RUN = run;
  if (project.name !== "services") {
    mkdirSync(path.dirname(INTEGRATION_LOG), { recursive: true });
    writeFileSync(INTEGRATION_LOG, `${runMarker(run)}\n`);
  }
  template = await createMigratedTestDatabase();
  process.env.KEYPORT_TEST_TEMPLATE_URL = template.url;
  // A file that imports the database before its worker's copy exists would use this one: the template itself.
  process.env.DATABASE_URL = template.url;
  // Uploaded files, like rows, are kept apart per worker: a test that counts
  // what is on disk must not see another file's upload in progress.
  filesRoot = mkdtempSync(path.join(os.tmpdir(), "keyport-test-files-"));
  process.env.KEYPORT_TEST_FILES_ROOT = filesRoot;
  process.env.AUTH_SECRET ??= "integration-tests-secret-0123456789abcdef";
  process.env.ENCRYPTION_KEY ??= Buffer.alloc(32, 7).toString("base64");
  // Test accounts hash their passwords with cheap Argon2 parameters (lib/auth/password.ts).
  process.env.KEYPORT_TEST_MODE = "1";
  console.log(`integration tests on ${template.provider}`);
}

export async function teardown() {
  if (filesRoot) rmSync(filesRoot, { recursive: true, force: true });
  if (!template) return;
  await dropWorkerDatabases(template.url);
  await template.drop();
}
