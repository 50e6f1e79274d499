// Copies everything the integration tests log to .test-logs/integration.log,
// which tests/e2e/zz-logs.spec.ts greps for passwords, tokens and secrets.
import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { format } from "node:util";

const file = path.join(import.meta.dirname, "..", "..", ".test-logs", "integration.log");
mkdirSync(path.dirname(file), { recursive: true });

for (const level of ["log", "info", "warn", "error"] as const) {
  const original = console[level].bind(console);
  console[level] = (...args: unknown[]) => {
    appendFileSync(file, format(...args) + "\n");
    original(...args);
  };
}
