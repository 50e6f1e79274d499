import "server-only";
import { createAccountAsOperator } from "../auth/accounts";
import { OPERATOR_USER_AGENT } from "./operator-agent";
import { clearGithubTokens } from "../auth/github-tokens";
import { hashLegacyTokens } from "../auth/legacy-session-token";
import { emailSchema, newPasswordSchema } from "../auth/credentials.schema";
import { testModeProblem } from "../auth/test-hashing";
import { db } from "../db";
import { DomainError } from "../domain-error";
import { SCOPE_NAMES } from "../keys/scopes";
import {
  CheckFailed,
  NotFoundError,
  parseFlags,
  readLine,
  required,
  UsageError,
  type Flags,
  type Io,
} from "./command-support";
import { MAX_RATE_LIMIT } from "../keys/restrictions";
import { envDefaults } from "../env-schema";
import { USAGE_AGGREGATE_RETENTION_DAYS } from "../maintenance/prune";
import { USAGE_RANGES } from "../usage/usage-range";
import { backupCommand, restoreCommand } from "./backup-commands";
import { backfillAuditCommand, signAuditCommand, startTeamChainsCommand, verifyAuditCommand } from "./audit-commands";
import {
  addMemberCommand,
  createTeamCommand,
  membersCommand,
  createServiceAccountCommand,
  inviteCommand,
  listServiceAccountsCommand,
  removeMemberCommand,
  setRoleCommand,
  keyRequestsCommand,
  teamPolicyCommand,
} from "./team-commands";
import { createKeyCommand, keyUsageCommand, listKeysCommand, revokeKeyCommand, updateKeyCommand } from "./key-commands";

const USAGE = `usage: npm run -s admin -- <command> [options]

  user:create --email E                 reads the password from standard input (one line)
  team:create --name NAME --owner EMAIL [--slug SLUG]
                                        makes a team owned by that account; prints it as
                                        JSON with its slug (proposed from the name if not given)
  team:add-member --team SLUG --email E --role viewer|developer|admin|owner
                                        adds an existing account to the team
  team:invite --team SLUG --email E --role ROLE
                                        mails an invitation (7 days, once, for that address);
                                        prints it as JSON, never its link
  team:set-role --team SLUG --email E --role ROLE
                                        changes a member's role (a team keeps an owner)
  team:remove-member --team SLUG --email E [--transfer-to NAME]
                                        ends the membership; revokes the member's own keys in
                                        the team ("the member it belonged to left the team"),
                                        or with --transfer-to hands every one of them but
                                        decoys (revoked) to that
                                        service account, not rotated (the person still knows
                                        their secrets); prints their ids
  team:members --team SLUG              prints the team's members and roles as JSON
  team:policy --team SLUG [--production-keys admins|approval|developers]
              [--max-lifetime-days-prod N|none] [--max-lifetime-days-dev N|none]
              [--require-two-factor on|off] [--prod-default-scopes S]
              [--prod-default-allow-ip IPS|none]
                                        sets the policies given (N: 7 to 365 days; audited),
                                        prints the team's policies as JSON
  service-account:create --team SLUG --name NAME
                                        makes a service account in the team: it owns keys that
                                        no departure revokes, and can never sign in
  service-account:list --team SLUG      prints the team's service accounts as JSON
  key:create --email E [--team SLUG] --env dev|prod --label L [--expires-in-days N]
             [--scopes S] [--allow-ip IPS] [--rate-limit N] [--override-policy]
                                        prints only the new secret; refuses what the team's
                                        policies refuse (a developer's production key under
                                        "admins" or "approval", an expiry past the maximum)
                                        unless given --override-policy, which the key's
                                        activity records
  key:create --team SLUG --service-account NAME [--email E] --env dev|prod --label L ...
                                        a key of that service account, made in the name of
                                        --email, or of the team's longest-standing owner
  key:requests --team SLUG              prints the team's requests for production keys that
                                        wait for a decision, oldest first, as JSON (no secret:
                                        a request holds none)
  key:update --id KEY_ID [--scopes S] [--allow-ip IPS|none] [--rate-limit N|default]
                                        changes only the restrictions given (at least one),
                                        prints the key's id and restrictions as JSON
  key:list --email E | --team SLUG      prints the keys of the person's personal team, or of
                                        the team, as JSON with each key's owner (no secrets)
  key:revoke --id KEY_ID                revokes a key by its id
  key:revoke --stdin                    reads a secret from standard input, revokes it,
                                        prints its id and owner as JSON
  key:usage --id KEY_ID [--since ${USAGE_RANGES.join("|")}]
                                        prints the key's requests over the range as the
                                        dashboard draws it (24h: this hour and the 23 before;
                                        7d, 30d: whole UTC days, today included; default 24h)
                                        as JSON: total, by_status_class, by_route, by_ip and
                                        after_revocation (requests made after the key was
                                        revoked or expired: answered revoked_api_key or
                                        expired_api_key). The counts come from the hourly
                                        totals, kept ${USAGE_AGGREGATE_RETENTION_DAYS} days, which count every request;
                                        by_ip from the request log, kept USAGE_RETENTION_DAYS
                                        days (default ${envDefaults().USAGE_RETENTION_DAYS}), at most 120 a key and minute
  audit:verify [--email E | --team SLUG]
                                        recomputes every account's and team's activity chain
                                        (or one's) from the database, with the key derived from
                                        ENCRYPTION_KEY; exits 1 naming the first row that was
                                        changed or removed, the end cut off, or a team's key
                                        with no "created" row
  audit:verify --file F                 the same for an export file (the activity page's JSON),
                                        offline; a signed export needs ENCRYPTION_KEY too
  audit:backfill                        chains activity rows written before the chain existed
                                        (npm run db:deploy runs it after the migrations)
  audit:key [--email E | --team SLUG]   checks every chain (or one's), then signs the heads
                                        not signed with the key yet, accepting their rows as
                                        they are: read what audit:verify names first. Run it
                                        once after the upgrade to a keyed chain (nothing runs it
                                        for you); signs nothing and exits 1 naming them if any
                                        fails
  audit:start-team-chains               starts each team chain that is empty and unsigned: a
                                        personal team's with a row committing to its account
                                        chain's head, another's empty, signed (npm run db:deploy
                                        runs it after the migrations)
  backup --to FILE                      writes the database and the uploaded files to FILE, a tar
                                        archive (never over an existing file): SQLite copied online
                                        while the server runs, PostgreSQL with pg_dump (Debian:
                                        postgresql-client); prints it as JSON. Keep ENCRYPTION_KEY
                                        with it: two-factor secrets and the activity chain need it
  restore --from FILE [--force]         puts a backup's database and files back; refuses a database
                                        that holds data (unless --force) and one a server uses (a
                                        live instance; on SQLite, any process with the file open);
                                        prints the backup's age. Keys revoked since the backup was
                                        taken work again until revoked anew
  accounts:clear-tokens                 empties GitHub's tokens where an account link still holds
                                        them (npm run db:deploy runs it after the migrations)
  sessions:hash-tokens                  stores the SHA-256 of each session's token where only the
                                        token in clear is (npm run db:deploy runs it before and
                                        after the migrations; docs/operations.md)

  --scopes S        all (the default), read-only, or a comma-separated list of:
                    ${SCOPE_NAMES.join(", ")}
  --allow-ip IPS    comma-separated IPv4/IPv6 addresses and CIDR ranges
                    (203.0.113.0/24,2001:db8::/32); none: any address (the default)
  --rate-limit N    requests per minute, 1 to ${MAX_RATE_LIMIT}, above the environment's default
                    if need be; default: the environment's default
`;

async function createUserCommand(flags: Flags, io: Io) {
  const email = required(emailSchema, flags.email, "email");
  const password = await readLine(io.stdin);
  const parsedPassword = newPasswordSchema.safeParse(password);
  if (!parsedPassword.success) throw new UsageError(`password: ${parsedPassword.error.issues[0]?.message}`);
  const result = await createAccountAsOperator(email, parsedPassword.data, OPERATOR_USER_AGENT);
  if (!result.ok) throw new UsageError(result.error);
  return { id: result.userId, email };
}

const COMMANDS: Record<string, (flags: Flags, io: Io) => Promise<unknown>> = {
  "user:create": createUserCommand,
  "team:create": createTeamCommand,
  "team:add-member": addMemberCommand,
  "team:set-role": setRoleCommand,
  "team:invite": inviteCommand,
  "team:remove-member": removeMemberCommand,
  "team:members": membersCommand,
  "team:policy": teamPolicyCommand,
  "key:requests": keyRequestsCommand,
  "service-account:create": createServiceAccountCommand,
  "service-account:list": listServiceAccountsCommand,
  "key:create": createKeyCommand,
  "key:update": updateKeyCommand,
  "key:list": listKeysCommand,
  "key:revoke": revokeKeyCommand,
  "key:usage": keyUsageCommand,
  "audit:verify": verifyAuditCommand,
  "audit:backfill": backfillAuditCommand,
  "audit:key": signAuditCommand,
  "audit:start-team-chains": startTeamChainsCommand,
  backup: backupCommand,
  restore: restoreCommand,
  // SQLite has no SHA-256 in SQL: the session_token_hash migration's backfill runs here.
  "sessions:hash-tokens": async () => ({ hashed_sessions: await hashLegacyTokens() }),
  // An instance of the previous release may link an account with GitHub's tokens during a rolling deploy.
  "accounts:clear-tokens": async () => ({ cleared_accounts: await clearGithubTokens() }),
};

async function run(name: string, args: string[], io: Io): Promise<void> {
  const flags = parseFlags(args);
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(`Unknown command: ${name || "(none)"}`);
  const output = await command(flags, io);
  io.stdout.write(`${typeof output === "string" ? output : JSON.stringify(output)}\n`);
}

/** Exit codes: 0 done, 1 unknown user or key (or a refused change, or a failed check), 2 bad arguments. */
export async function runAdmin(argv: string[], io: Io): Promise<number> {
  const [command = "", ...rest] = argv;
  if (command === "--help" || command === "help") {
    io.stdout.write(USAGE);
    return 0;
  }
  // Test mode outside a test database is refused here as the server refuses it
  // (lib/startup-check.ts): an account made now would get the suite's cheap hash.
  const testMode = testModeProblem(process.env);
  if (testMode) {
    io.stderr.write(`admin: ${testMode}\n`);
    return 1;
  }
  try {
    await run(command, rest, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string })?.code?.startsWith("ERR_PARSE_ARGS")) {
      io.stderr.write(`admin: ${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof NotFoundError || error instanceof DomainError || error instanceof CheckFailed) {
      io.stderr.write(`admin: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    // An export checked offline never opened the database, and may run without the environment a client needs
    // (a v1 export, or none of ENCRYPTION_KEY): opening one only to close it would fail after the answer.
    await Promise.resolve()
      .then(() => db.$disconnect())
      .catch(() => {});
  }
}
