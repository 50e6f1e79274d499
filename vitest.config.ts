import os from "node:os";
import path from "node:path";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

const root = import.meta.dirname;
const alias = {
  "@": root,
  // `server-only` throws outside a React Server bundle; tests import server modules directly.
  "server-only": path.join(root, "tests", "helpers", "server-only-stub.ts"),
};

// Integration files wait on databases, mail and child servers as much as on the
// CPU: one more worker than there are cores keeps both cores busy.
// KEYPORT_TEST_WORKERS overrides it (1 runs the files one at a time).
const integrationWorkers = Number(process.env.KEYPORT_TEST_WORKERS) || os.availableParallelism() + 1;

/** The integration and upgrade tests: each worker runs its files on its own copy of the run's migrated database. */
const onDatabases: TestProjectInlineConfiguration["test"] = {
  environment: "node",
  globalSetup: ["tests/helpers/integration-global-setup.ts"],
  setupFiles: [
    "tests/helpers/worker-database.ts",
    "tests/helpers/drop-unsent-mail.ts",
    "tests/helpers/capture-logs.ts",
  ],
  maxWorkers: integrationWorkers,
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  resolve: { alias },
  test: {
    // Structured logs of passing tests are noise; a failing test shows its own.
    silent: "passed-only",
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts", "lib/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        resolve: { alias },
        test: { name: "integration", include: ["tests/integration/**/*.test.ts"], ...onDatabases },
      },
      {
        resolve: { alias },
        test: {
          // Upgrades from an earlier release's data: each file migrates databases with `prisma` and `db:deploy`
          // processes (a third of the integration step's CPU on SQLite). CI runs them on both databases
          // (.ci/run); `npm test` leaves them out, and `npm run test:upgrades` runs them (docs/testing.md).
          name: "upgrades",
          include: ["tests/upgrades/**/*.test.ts"],
          ...onDatabases,
        },
      },
      {
        resolve: { alias },
        test: {
          // After every integration file of the same command (a higher group
          // runs after a lower one): scans what they logged.
          name: "integration-logs",
          include: ["tests/after-integration/**/*.test.ts"],
          environment: "node",
          sequence: { groupOrder: 1 },
        },
      },
      {
        resolve: { alias },
        test: {
          // Needs PostgreSQL (TEST_DATABASE_URL) and redis-server: `npm run test:services`, run by CI.
          // Its files share one database and run their own servers and Redis: one at a time.
          name: "services",
          include: ["tests/services/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/helpers/integration-global-setup.ts"],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
