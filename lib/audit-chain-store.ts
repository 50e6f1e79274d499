import "server-only";
import { z } from "zod";
import { chainHash, teamChainId, verifyChain, type ChainProblem, type SealedHead } from "./audit-chain";
import { auditChainKey } from "./audit-key";
import type { Db } from "./db";

// The activity log's chains in the database: load one, check them all,
// export one (the activity page's JSON download), check an export offline,
// and the one-time backfill that chains rows written before the chain existed.
// Signing chains at the switch to a keyed chain is lib/audit-chain-signing.ts.

const rowSelect = {
  seq: true,
  action: true,
  keyId: true,
  ip: true,
  userAgent: true,
  details: true,
  createdAt: true,
  hash: true,
} as const;

type Reader = Pick<Db, "user" | "auditEvent" | "team" | "teamAuditEvent">;

const teamRowSelect = { ...rowSelect, actorKind: true, actorId: true } as const;

/**
 * A chain that holds can still have lost its end: someone who can read and
 * write the database can save a head and its seal, and put them back later
 * with the rows after it deleted (a seal says which row it signs, not when).
 * The keys are outside the chain: each key of a team must have its "created"
 * row in the team's chain, so a key made and then hidden that way is found
 * (and so is a key moved in from another team). Keys made before teams had
 * chains have theirs in an account's chain: a personal team's in its owner's,
 * another team's in any account's (an admin's rotation made the replacement
 * in the maker's name, so its row may be in the admin's chain, and the admin
 * may have left since): a key of that time moved between shared teams by SQL
 * is not found. Other rows cut
 * that way are not found; an export kept elsewhere is what shows them
 * (docs/security.md).
 */
async function unrecordedKey(
  client: Pick<Db, "apiKey" | "auditEvent">,
  team: { id: string; personalOfId: string | null },
  rows: { action: string; keyId: string | null }[],
) {
  const recorded = new Set(rows.filter((row) => row.action === "key.created").map((row) => row.keyId));
  const keys = await client.apiKey.findMany({
    where: { teamId: team.id },
    select: { publicId: true },
    orderBy: { createdAt: "asc" },
  });
  const rest = keys.filter((key) => !recorded.has(key.publicId)).map((key) => key.publicId);
  if (rest.length === 0) return null;
  // Since the team chains began, no key.created row goes to an account's chain: any found there is from before.
  const earlier = new Set(
    (
      await client.auditEvent.findMany({
        where: {
          action: "key.created",
          keyId: { in: rest },
          ...(team.personalOfId ? { userId: team.personalOfId } : {}),
        },
        select: { keyId: true },
      })
    ).map((row) => row.keyId),
  );
  return rest.find((id) => !earlier.has(id)) ?? null;
}

export async function loadChain(client: Reader, userId: string) {
  const [user, rows] = await Promise.all([
    client.user.findUniqueOrThrow({
      where: { id: userId },
      select: { email: true, auditSeq: true, auditHash: true, auditSeal: true },
    }),
    client.auditEvent.findMany({ where: { userId }, orderBy: { seq: "asc" }, select: rowSelect }),
  ]);
  const head: SealedHead = { seq: user.auditSeq, hash: user.auditHash, seal: user.auditSeal };
  return { email: user.email, head, rows };
}

export async function loadTeamChain(client: Reader, teamId: string) {
  const [team, rows] = await Promise.all([
    client.team.findUniqueOrThrow({
      where: { id: teamId },
      select: { slug: true, personalOfId: true, auditSeq: true, auditHash: true, auditSeal: true },
    }),
    client.teamAuditEvent.findMany({ where: { teamId }, orderBy: { seq: "asc" }, select: teamRowSelect }),
  ]);
  const head: SealedHead = { seq: team.auditSeq, hash: team.auditHash, seal: team.auditSeal };
  return { slug: team.slug, personalOfId: team.personalOfId, head, rows };
}

export interface AccountCheck {
  userId: string;
  email: string;
  rows: number;
  problem: ChainProblem | null;
}

/** Recomputes the chain of every account (or the one given) from the database, with the chain's key. */
export async function checkStoredChains(
  client: Db,
  only?: { userId: string },
  key: Buffer = auditChainKey(),
): Promise<AccountCheck[]> {
  const users = await client.user.findMany({
    where: only ? { id: only.userId } : {},
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  const checks: AccountCheck[] = [];
  for (const { id } of users) {
    const { email, head, rows } = await loadChain(client, id);
    checks.push({ userId: id, email, rows: rows.length, problem: verifyChain(id, rows, head, key) });
  }
  return checks;
}

export interface TeamCheck {
  teamId: string;
  slug: string;
  rows: number;
  problem: ChainProblem | null;
}

type TeamReader = Reader & Pick<Db, "apiKey">;

/**
 * One team's chain, recomputed, and its keys checked against it. The keys are
 * checked whatever the chain's own check found: a chain emptied and unsigned
 * hides nothing more than it shows, so a key made since is named rather than
 * the chain being offered for signing.
 */
export async function checkTeamChain(client: TeamReader, teamId: string, key: Buffer): Promise<TeamCheck> {
  const { slug, personalOfId, head, rows } = await loadTeamChain(client, teamId);
  const problem = verifyChain(teamChainId(teamId), rows, head, key);
  const unrecorded = await unrecordedKey(client, { id: teamId, personalOfId }, rows);
  if (!unrecorded) return { teamId, slug, rows: rows.length, problem };
  const missing =
    `key ${unrecorded} has no "created" row in this team's log: rows were cut off its end (an earlier ` +
    "head and its seal put back), or the key was moved here from another team";
  return {
    teamId,
    slug,
    rows: rows.length,
    problem:
      problem && problem.problem !== "unsigned"
        ? { ...problem, message: `${problem.message}; and ${missing}` }
        : { seq: head.seq + 1, problem: "unrecorded_key", message: missing },
  };
}

/** Recomputes the chain of every team (or the one given) from the database, and checks each key is recorded. */
export async function checkStoredTeamChains(
  client: Db,
  only?: { teamId: string },
  key: Buffer = auditChainKey(),
): Promise<TeamCheck[]> {
  const teams = await client.team.findMany({
    where: only ? { id: only.teamId } : {},
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  const checks: TeamCheck[] = [];
  for (const { id } of teams) checks.push(await checkTeamChain(client, id, key));
  return checks;
}

/** v2: keyed rows and a sealed head, checked with the deployment's key. v1 (before the switch): SHA-256 only. */
export const EXPORT_FORMAT = "keyport.activity-chain.v2";
const UNKEYED_EXPORT_FORMAT = "keyport.activity-chain.v1";

/** The account's activity log with its hashes and head, as the activity page offers it for download. */
export async function exportChain(client: Db, userId: string) {
  const { email, head, rows } = await loadChain(client, userId);
  return {
    format: EXPORT_FORMAT,
    userId,
    email,
    exportedAt: new Date().toISOString(),
    head,
    rows: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
  };
}

/** A team's chain: keyed rows naming who acted, and its sealed head. */
export const TEAM_EXPORT_FORMAT = "keyport.team-activity-chain.v1";

/** The team's activity log with its hashes and head, as the team's activity page offers it to its admins. */
export async function exportTeamChain(client: Db, teamId: string) {
  const { slug, head, rows } = await loadTeamChain(client, teamId);
  return {
    format: TEAM_EXPORT_FORMAT,
    teamId,
    slug,
    exportedAt: new Date().toISOString(),
    head,
    rows: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
  };
}

const exportedRow = z.object({
  seq: z.number().int().min(1),
  action: z.string(),
  keyId: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  details: z.string().nullable(),
  createdAt: z.iso.datetime(),
  hash: z.string(),
});

const teamExportSchema = z.object({
  format: z.literal(TEAM_EXPORT_FORMAT),
  teamId: z.string().min(1),
  slug: z.string(),
  head: z.object({ seq: z.number().int().min(0), hash: z.string(), seal: z.string() }),
  rows: z.array(exportedRow.extend({ actorKind: z.string(), actorId: z.string().nullable() })),
});

const exportSchema = z.object({
  format: z.enum([EXPORT_FORMAT, UNKEYED_EXPORT_FORMAT]),
  userId: z.string().min(1),
  email: z.string(),
  head: z.object({ seq: z.number().int().min(0), hash: z.string(), seal: z.string().default("") }),
  rows: z.array(exportedRow),
});

/**
 * Checks an export file's text: the chain problem, or null; throws a readable
 * error for a file that is not an export. `key` is asked for only when the
 * file is keyed (v2): it throws if the deployment's key is not at hand.
 */
export function checkExport(
  text: string,
  key: () => Buffer,
): { owner: { email: string } | { team: string }; rows: number; keyed: boolean; problem: ChainProblem | null } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error("the file is not JSON");
  }
  const isTeam = (json as { format?: unknown } | null)?.format === TEAM_EXPORT_FORMAT;
  const parsed = (isTeam ? teamExportSchema : exportSchema).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `the file is not a Keyport activity export (${issue?.path.join(".") || "root"}: ${issue?.message})`,
    );
  }
  if ("teamId" in parsed.data) {
    const { teamId, slug, head, rows } = parsed.data;
    return {
      owner: { team: slug },
      rows: rows.length,
      keyed: true,
      problem: verifyChain(teamChainId(teamId), rows, head, key()),
    };
  }
  const { format, userId, email, head, rows } = parsed.data;
  // A v1 file was exported before the switch: SHA-256 only, as it was checked then.
  const keyed = format === EXPORT_FORMAT;
  return { owner: { email }, rows: rows.length, keyed, problem: verifyChain(userId, rows, head, keyed ? key() : null) };
}

/**
 * Chains the rows written before the chain existed (their hash is "", their
 * numbers given by the migration), account by account, and sets each head.
 * The release runs it after `prisma migrate deploy` (npm run db:deploy), so
 * it must never re-sign a chain: it touches only an account whose head was
 * never set and none of whose rows has a hash. An account with some rows
 * hashed and some not is left for audit:verify to report, not "repaired".
 */
export async function backfillChains(client: Db): Promise<{ chained: number; refused: string[] }> {
  const pending = await client.auditEvent.findMany({
    where: { hash: "" },
    distinct: ["userId"],
    select: { userId: true },
  });
  let chained = 0;
  const refused: string[] = [];
  for (const { userId } of pending) {
    const done = await client.$transaction(async (tx) => {
      // The head row first: the app's own writes for this account wait for this transaction.
      const head = await tx.user.update({
        where: { id: userId },
        data: { auditSeq: { increment: 0 } },
        select: { auditHash: true },
      });
      const rows = await tx.auditEvent.findMany({
        where: { userId },
        orderBy: { seq: "asc" },
        select: { id: true, ...rowSelect },
      });
      if (head.auditHash !== "" || rows.some((row) => row.hash !== "")) return false;
      let previous = "";
      for (const row of rows) {
        const hash = chainHash(previous, userId, row);
        await tx.auditEvent.update({ where: { id: row.id }, data: { hash } });
        previous = hash;
      }
      await tx.user.update({ where: { id: userId }, data: { auditSeq: rows.at(-1)?.seq ?? 0, auditHash: previous } });
      return true;
    });
    if (done) chained += 1;
    else refused.push(userId);
  }
  return { chained, refused };
}
