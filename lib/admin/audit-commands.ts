import "server-only";
import { readFile } from "node:fs/promises";
import { emailSchema } from "../auth/credentials.schema";
import { signChains } from "../audit-chain-signing";
import { startTeamChains } from "../audit-chain-start";
import { backfillChains, checkExport, checkStoredChains, checkStoredTeamChains } from "../audit-chain-store";
import { auditChainKey } from "../audit-key";
import { db } from "../db";
import { CheckFailed, required, UsageError, userByEmail, type Flags } from "./command-support";
import { teamBySlug } from "./team-commands";

// The activity log's hash chain (lib/audit-chain.ts), checked by an operator:
// from the database, for every account or one, or from an export file
// offline; the release's one-time backfill; and the switch to a keyed chain.

/** An export of this release is signed: checking it takes the deployment's ENCRYPTION_KEY, as the database does. */
function keyForFile(): Buffer {
  try {
    return auditChainKey();
  } catch {
    throw new UsageError(
      "--file: the export is signed with a key derived from ENCRYPTION_KEY; set the deployment's ENCRYPTION_KEY to check it",
    );
  }
}

export async function verifyAuditCommand(flags: Flags) {
  if (flags.file !== undefined) {
    if (flags.email !== undefined || flags.team !== undefined) {
      throw new UsageError("--file checks the file alone: give no --email or --team with it");
    }
    let text: string;
    try {
      text = await readFile(flags.file, "utf8");
    } catch {
      throw new UsageError(`--file: cannot read ${flags.file}`);
    }
    let checked: ReturnType<typeof checkExport>;
    try {
      checked = checkExport(text, keyForFile);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`--file: ${(error as Error).message}`);
    }
    const owner = "email" in checked.owner ? checked.owner.email : `team ${checked.owner.team}`;
    if (checked.problem) throw new CheckFailed(`${flags.file} (${owner}): ${checked.problem.message}`);
    return { ok: true, file: flags.file, ...checked.owner, rows: checked.rows, keyed: checked.keyed };
  }
  if (flags.email !== undefined && flags.team !== undefined) throw new UsageError("--email and --team: give one");
  const rows = (checks: { rows: number }[]) => checks.reduce((sum, check) => sum + check.rows, 0);
  if (flags.team !== undefined) {
    const team = await teamBySlug(flags);
    const [check] = await checkStoredTeamChains(db, { teamId: team.id });
    if (check!.problem) throw new CheckFailed(`team ${check!.slug} (${check!.teamId}): ${check!.problem.message}`);
    return { ok: true, team: check!.slug, rows: check!.rows };
  }
  const only = flags.email === undefined ? undefined : await userByEmail(required(emailSchema, flags.email, "email"));
  const checks = await checkStoredChains(db, only ? { userId: only.id } : undefined);
  // Every team's chain too, unless one account was asked for.
  const teamChecks = only ? [] : await checkStoredTeamChains(db);
  const failed = [
    ...checks
      .filter((check) => check.problem)
      .map((check) => `${check.email} (${check.userId}): ${check.problem!.message}`),
    ...teamChecks
      .filter((check) => check.problem)
      .map((check) => `team ${check.slug} (${check.teamId}): ${check.problem!.message}`),
  ];
  if (failed.length > 0) throw new CheckFailed(failed.join("\n"));
  return {
    ok: true,
    accounts: checks.length,
    ...(only ? {} : { teams: teamChecks.length }),
    rows: rows(checks) + rows(teamChecks),
  };
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

/** audit:key: checks every chain (or one's), then signs the heads not signed yet; signs nothing if any chain fails. */
export async function signAuditCommand(flags: Flags) {
  if (flags.email !== undefined && flags.team !== undefined) throw new UsageError("--email and --team: give one");
  const only =
    flags.team !== undefined
      ? { teamId: (await teamBySlug(flags)).id }
      : flags.email !== undefined
        ? { userId: (await userByEmail(required(emailSchema, flags.email, "email"))).id }
        : undefined;
  const { signed, refused } = await signChains(db, auditChainKey(), only);
  if (refused.length > 0) {
    throw new CheckFailed(
      `signed nothing: ${refused.length} chain(s) fail their check (nothing is re-signed; look into each first):\n` +
        refused.map(({ owner, message }) => `${owner}: ${message}`).join("\n"),
    );
  }
  return { signed_accounts: signed.accounts, signed_teams: signed.teams };
}

/** audit:start-team-chains (run by db:deploy): starts every team chain that is empty and unsigned. */
export async function startTeamChainsCommand() {
  const { personal, other } = await startTeamChains(db);
  return { started_personal_team_chains: personal, started_other_team_chains: other };
}
