import "server-only";
import { readFile } from "node:fs/promises";
import { emailSchema } from "../auth/credentials.schema";
import { backfillChains, checkExport, checkStoredChains } from "../audit-chain-store";
import { db } from "../db";
import { CheckFailed, required, UsageError, userByEmail, type Flags } from "./command-support";

// The activity log's hash chain (lib/audit-chain.ts), checked by an operator:
// from the database, for every account or one, or from an export file
// offline; and the release's one-time backfill.

export async function verifyAuditCommand(flags: Flags) {
  if (flags.file !== undefined) {
    if (flags.email !== undefined) throw new UsageError("--file and --email: give one");
    let text: string;
    try {
      text = await readFile(flags.file, "utf8");
    } catch {
      throw new UsageError(`--file: cannot read ${flags.file}`);
    }
    let checked: ReturnType<typeof checkExport>;
    try {
      checked = checkExport(text);
    } catch (error) {
      throw new UsageError(`--file: ${(error as Error).message}`);
    }
    if (checked.problem) throw new CheckFailed(`${flags.file} (${checked.email}): ${checked.problem.message}`);
    return { ok: true, file: flags.file, email: checked.email, rows: checked.rows };
  }
  const only = flags.email === undefined ? undefined : await userByEmail(required(emailSchema, flags.email, "email"));
  const checks = await checkStoredChains(db, only ? { userId: only.id } : undefined);
  const failed = checks.filter((check) => check.problem);
  if (failed.length > 0) {
    throw new CheckFailed(
      failed.map((check) => `${check.email} (${check.userId}): ${check.problem!.message}`).join("\n"),
    );
  }
  return { ok: true, accounts: checks.length, rows: checks.reduce((sum, check) => sum + check.rows, 0) };
}

export async function backfillAuditCommand() {
  const { chained, refused } = await backfillChains(db);
  // Partly chained accounts are not re-signed: that would hide a tampered row.
  if (refused.length > 0) {
    throw new CheckFailed(
      `chained ${chained} account(s); refused ${refused.length} whose rows are partly chained (run audit:verify): ${refused.join(", ")}`,
    );
  }
  return { chained_accounts: chained };
}
