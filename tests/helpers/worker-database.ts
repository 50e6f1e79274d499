// Runs before each test file: points DATABASE_URL at this worker's own copy of
// the run's template database, and FILES_DIR at its own folder, before the
// file imports anything that opens them.
import path from "node:path";
import { workerDatabase } from "./test-database";

const template = process.env.KEYPORT_TEST_TEMPLATE_URL;
const worker = process.env.VITEST_POOL_ID;
if (!template || !worker) throw new Error("worker-database.ts runs under the integration global setup only.");
process.env.DATABASE_URL = await workerDatabase(template, worker);
const filesRoot = process.env.KEYPORT_TEST_FILES_ROOT;
if (filesRoot) {
  process.env.FILES_DIR = path.join(filesRoot, `worker-${worker}`);
  // Mail sent without an SMTP server goes to a folder of the run's, never to the checkout's data/outbox/ (the
  // default), where a later `next build` of the same checkout traced it into the server's files and the build-trace
  // test failed: set before each file, since a file may set and delete its own (mail-job.test.ts).
  process.env.MAIL_OUTBOX_DIR = path.join(filesRoot, `outbox-${worker}`);
}
