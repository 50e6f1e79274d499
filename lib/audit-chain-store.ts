import "server-only";
import { z } from "zod";
import { chainHash, verifyChain, type ChainProblem, type SealedHead } from "./audit-chain";
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

type Reader = Pick<Db, "user" | "auditEvent">;

/**
 * A chain that holds can still have lost its end: someone who can read and
 * write the database can save a head and its seal, and put them back later
 * with the rows after it deleted (a seal says which row it signs, not when).
 * The keys are outside the chain: each key of the account must have its
 * "created" row, so a key made and then hidden that way is found (and so is a
 * key moved in from another account). Other rows cut that way are not; an
 * export kept elsewhere is what shows them (docs/security.md).
 */
async function unrecordedKey(
  client: Pick<Db, "apiKey" | "auditEvent">,
  userId: string,
  rows: { action: string; keyId: string | null }[],
) {
  const recorded = new Set(rows.filter((row) => row.action === "key.created").map((row) => row.keyId));
  // The personal team's keys: only its owner makes them (or the operator and reports, in the owner's name), so each
  // is recorded in this chain, and a key moved into the team by SQL is found too.
  const personal = await client.apiKey.findMany({
    where: { team: { personalOfId: userId } },
    select: { publicId: true },
    orderBy: { createdAt: "asc" },
  });
  const missing = personal.find((key) => !recorded.has(key.publicId));
  if (missing) return missing.publicId;
  // The account's keys in other teams: another member may have made one in its name (an admin's rotation makes the
  // replacement in the maker's name), so its "created" row may be in that member's chain. Until teams have chains of
  // their own, each must be recorded in some account's chain.
  const elsewhere = await client.apiKey.findMany({
    where: { userId, team: { personalOfId: null } },
    select: { publicId: true },
    orderBy: { createdAt: "asc" },
  });
  if (elsewhere.length === 0) return null;
  const found = new Set(
    (
      await client.auditEvent.findMany({
        where: { action: "key.created", keyId: { in: elsewhere.map((key) => key.publicId) } },
        select: { keyId: true },
      })
    ).map((row) => row.keyId),
  );
  return elsewhere.find((key) => !recorded.has(key.publicId) && !found.has(key.publicId))?.publicId ?? null;
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
    let problem = verifyChain(id, rows, head, key);
    const unrecorded = problem ? null : await unrecordedKey(client, id, rows);
    if (unrecorded) {
      problem = {
        seq: head.seq + 1,
        problem: "unrecorded_key",
        message:
          `key ${unrecorded} has no "created" row in this account's log: rows were cut off its end (an earlier ` +
          "head and its seal put back), or the key was moved here from another account",
      };
    }
    checks.push({ userId: id, email, rows: rows.length, problem });
  }
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

const exportSchema = z.object({
  format: z.enum([EXPORT_FORMAT, UNKEYED_EXPORT_FORMAT]),
  userId: z.string().min(1),
  email: z.string(),
  head: z.object({ seq: z.number().int().min(0), hash: z.string(), seal: z.string().default("") }),
  rows: z.array(
    z.object({
      seq: z.number().int().min(1),
      action: z.string(),
      keyId: z.string().nullable(),
      ip: z.string().nullable(),
      userAgent: z.string().nullable(),
      details: z.string().nullable(),
      createdAt: z.iso.datetime(),
      hash: z.string(),
    }),
  ),
});

/**
 * Checks an export file's text: the chain problem, or null; throws a readable
 * error for a file that is not an export. `key` is asked for only when the
 * file is keyed (v2): it throws if the deployment's key is not at hand.
 */
export function checkExport(
  text: string,
  key: () => Buffer,
): { userId: string; email: string; rows: number; keyed: boolean; problem: ChainProblem | null } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error("the file is not JSON");
  }
  const parsed = exportSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `the file is not a Keyport activity export (${issue?.path.join(".") || "root"}: ${issue?.message})`,
    );
  }
  const { format, userId, email, head, rows } = parsed.data;
  // A v1 file was exported before the switch: SHA-256 only, as it was checked then.
  const keyed = format === EXPORT_FORMAT;
  return { userId, email, rows: rows.length, keyed, problem: verifyChain(userId, rows, head, keyed ? key() : null) };
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
