import path from "node:path";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;
const alias = {
  "@": root,
  // `server-only` throws outside a React Server bundle; tests import server modules directly.
  "server-only": path.join(root, "tests", "helpers", "server-only-stub.ts"),
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
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/helpers/integration-global-setup.ts"],
          setupFiles: ["tests/helpers/capture-logs.ts"],
          // One database per run, shared by the files: run them one at a time.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          // Needs PostgreSQL (TEST_DATABASE_URL) and redis-server: `npm run test:services`, run by CI.
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
