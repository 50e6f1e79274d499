// Runs before each test file: points DATABASE_URL at this worker's own copy of
// the run's template database, before the file imports anything that opens it.
import { workerDatabase } from "./test-database";

const template = process.env.KEYPORT_TEST_TEMPLATE_URL;
const worker = process.env.VITEST_POOL_ID;
if (!template || !worker) throw new Error("worker-database.ts runs under the integration global setup only.");
process.env.DATABASE_URL = await workerDatabase(template, worker);
