// Copies everything the integration tests log to .test-logs/integration.log,
// which tests/after-integration/integration-logs.test.ts greps for passwords,
// tokens and secrets once every integration file has run:
// console calls, and what is written to stdout and stderr directly (lib/log.ts
// writes its gathered info lines that way). A line may be copied twice; the
// scan only looks for what must never be there, and for one line that must.
import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { format } from "node:util";
import { INTEGRATION_LOG as file } from "./integration-log";

mkdirSync(path.dirname(file), { recursive: true });

for (const level of ["log", "info", "warn", "error"] as const) {
  const original = console[level].bind(console);
  console[level] = (...args: unknown[]) => {
    appendFileSync(file, format(...args) + "\n");
    original(...args);
  };
}

for (const stream of [process.stdout, process.stderr]) {
  const original = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    appendFileSync(file, typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8"));
    return original(chunk, ...rest);
  }) as typeof stream.write;
}
