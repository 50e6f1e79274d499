import { createHash } from "node:crypto";

// The activity log as a hash chain, per account. Each row carries its
// sequence number (1, 2, 3...) and the SHA-256 of the previous row's hash and
// its own canonical content; the account row keeps the latest sequence number
// and hash (the head). So an edited row no longer matches its hash, a removed
// row leaves a gap in the numbers, and rows cut off the end leave the head
// naming a row that is not there. Pure functions: the app writes with them
// (lib/audit.ts), and the operator CLI checks the database or an export file
// with them, offline.

export interface ChainedRow {
  seq: number;
  action: string;
  keyId: string | null;
  ip: string | null;
  userAgent: string | null;
  details: string | null;
  createdAt: Date | string;
}

export interface ChainHead {
  seq: number;
  hash: string;
}

/** The row's content in one fixed form: a JSON array, its fields in a fixed order, the time in UTC to the millisecond. */
export function canonicalRow(userId: string, row: ChainedRow): string {
  const createdAt = new Date(row.createdAt).toISOString();
  return JSON.stringify([userId, row.seq, row.action, row.keyId, row.ip, row.userAgent, row.details, createdAt]);
}

/** hash = sha256(previous hash || canonical row), in hex. The first row's previous hash is "". */
export function chainHash(previousHash: string, userId: string, row: ChainedRow): string {
  return createHash("sha256").update(previousHash).update(canonicalRow(userId, row)).digest("hex");
}

export interface ChainProblem {
  /** The sequence number of the first row that is wrong or missing. */
  seq: number;
  problem: "changed" | "removed" | "cut_off" | "beyond_head";
  message: string;
}

/**
 * Walks the chain from row 1 and names the first row that was changed or
 * removed, or the end cut off; null when every row and the head agree. `rows`
 * in any order.
 */
export function verifyChain(userId: string, rows: readonly (ChainedRow & { hash: string })[], head: ChainHead) {
  const sorted = [...rows].sort((a, b) => a.seq - b.seq);
  let previous = "";
  let expected = 1;
  for (const row of sorted) {
    if (row.seq > head.seq) {
      return problem(
        row.seq,
        "beyond_head",
        `row ${row.seq} is past the head (row ${head.seq}): it was added outside the app`,
      );
    }
    if (row.seq !== expected) {
      return problem(expected, "removed", `row ${expected} was removed (the next row is ${row.seq})`);
    }
    if (chainHash(previous, userId, row) !== row.hash) {
      return problem(row.seq, "changed", `row ${row.seq} was changed: its content no longer matches its hash`);
    }
    previous = row.hash;
    expected += 1;
  }
  const last = expected - 1;
  if (head.seq > last) {
    const cut = head.seq === expected ? `row ${expected} was` : `rows ${expected} to ${head.seq} were`;
    return problem(expected, "cut_off", `${cut} removed from the end (the head names row ${head.seq})`);
  }
  if (head.hash !== previous) {
    return problem(last, "changed", `row ${last} was changed: the head holds another hash for it`);
  }
  return null;
}

function problem(seq: number, kind: ChainProblem["problem"], message: string): ChainProblem {
  return { seq, problem: kind, message };
}
