// Runs after every integration file of the same command (vitest.config.ts:
// the "integration-logs" project's groupOrder): what those tests logged,
// copied to .test-logs/integration.log by tests/helpers/capture-logs.ts, must
// hold no password, key, token or hash. The log must be this run's: a log
// left by an earlier run would prove nothing about this one.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { INTEGRATION_LOG, runMarker } from "../helpers/integration-log";

it("the integration tests' logs of this run hold no password, key, token or hash", () => {
  const run = process.env.KEYPORT_INTEGRATION_RUN;
  expect(
    run,
    "run with the integration project: vitest run --project integration --project integration-logs",
  ).toBeTruthy();
  const log = readFileSync(path.resolve(INTEGRATION_LOG), "utf8");
  expect(log.split("\n", 1)[0]).toBe(runMarker(run!));
  // The scan sees what the tests logged: a key was created and logged (without its secret).
  expect(log).toMatch(/"event":"key\.created"/);
  for (const secret of ["a long enough password", "integration-tests-secret-0123456789abcdef"]) {
    expect(log.includes(secret), `log contains ${secret.slice(0, 4)}…`).toBe(false);
  }
  // Full keys, session tokens (43 base64url characters) and SHA-256 digests (64 hex) never appear.
  expect(log.match(/sk_(dev|prod)_[0-9A-Za-z]{38}/g)).toBeNull();
  expect(log.match(/(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43,}(?![A-Za-z0-9_-])/g)).toBeNull();
});
