// Keyport's operator command line: npm run -s admin -- <command> [options]
// Output is machine-readable; secrets never come from the command line (shell
// history and the process list keep it), only from standard input.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
// The same env files Next reads, so the CLI finds the same database.
for (const file of [".env.local", ".env.development.local", ".env"]) {
  const full = path.join(root, file);
  if (existsSync(full)) process.loadEnvFile(full);
}
// The CLI signs no cookies, so it does not need the app's AUTH_SECRET; a
// throw-away value satisfies the shared environment check.
process.env.AUTH_SECRET ??= randomBytes(32).toString("base64url");
// ENCRYPTION_KEY is not made up here: the activity chain is signed and
// checked with a key derived from it (lib/audit-key.ts), so rows a throw-away
// key signed would fail every later check. Without it the CLI stops at the
// environment check, naming it.
process.env.KEYPORT_LOG_TO_STDERR = "1";

const { runAdmin } = await import("../lib/admin/cli");
const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
const args = process.argv.slice(2);

/**
 * `--steps A B ...`: commands without options, one after another in this one
 * process, stopping at the first that fails (npm run db:deploy's steps: a
 * process each cost seconds of start-up).
 */
async function run(): Promise<number> {
  if (args[0] !== "--steps") return runAdmin(args, io);
  for (const command of args.slice(1)) {
    const code = await runAdmin([command], io);
    if (code !== 0) return code;
  }
  return 0;
}

run().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`admin: ${(error as Error)?.message ?? String(error)}\n`);
    process.exit(1);
  },
);
