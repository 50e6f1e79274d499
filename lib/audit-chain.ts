import { createHash, createHmac, timingSafeEqual } from "node:crypto";

// The activity log as a hash chain, per account and per team (teamChainId). Each row carries its
// sequence number (1, 2, 3...) and a hash of the previous row's hash and its
// own canonical content; the account row keeps the latest sequence number and
// hash (the head). So an edited row no longer matches its hash, a removed row
// leaves a gap in the numbers, and rows cut off the end leave the head naming
// a row that is not there.
//
// Keyed from the switch on (docs/security.md, "The activity log"): a row's
// hash is an HMAC-SHA256 under a key derived from ENCRYPTION_KEY
// (lib/audit-key.ts), and the head is signed too (the seal), so rewriting rows
// and hashes, or cutting rows off the end and moving the head back, takes the
// key. Rows written before the switch keep their plain SHA-256 hashes (they
// are never re-signed: that would launder whatever was done to them), and the
// first keyed row of a chain commits to the last of them, as any row commits
// to the one before. Pure functions: the app writes with them (lib/audit.ts),
// and the operator CLI checks the database or an export file with them.

/** What a keyed row's hash and a seal start with; a row without it was hashed before the switch. */
export const KEYED = "hmac-sha256:";

/**
 * A chain is named by its owner's id: an account's user id, or "team:" and a
 * team's id (cuids hold no ":", so the two never meet). The name is in every
 * row's hash and in the seal, so no row or seal of one chain fits another.
 */
export function teamChainId(teamId: string): string {
  return `team:${teamId}`;
}

const isTeamChain = (chainId: string) => chainId.startsWith("team:");

export interface ChainedRow {
  seq: number;
  action: string;
  keyId: string | null;
  ip: string | null;
  userAgent: string | null;
  details: string | null;
  createdAt: Date | string;
  /** A team's rows only: who acted (person, operator or report) and in whose name. */
  actorKind?: string;
  actorId?: string | null;
}

export interface ChainHead {
  seq: number;
  hash: string;
}

/** The head as the account row keeps it, with its seal ("" until the chain is keyed). */
export interface SealedHead extends ChainHead {
  seal: string;
}

/**
 * The row's content in one fixed form: a JSON array, its fields in a fixed
 * order, the time in UTC to the millisecond. A team's row also holds who
 * acted: the chain proves who changed a shared key, not only what changed.
 */
export function canonicalRow(chainId: string, row: ChainedRow): string {
  const createdAt = new Date(row.createdAt).toISOString();
  const fields = [chainId, row.seq, row.action, row.keyId, row.ip, row.userAgent, row.details, createdAt];
  if (isTeamChain(chainId)) fields.push(row.actorKind ?? null, row.actorId ?? null);
  return JSON.stringify(fields);
}

/** A row written before the switch: sha256(previous hash || canonical row), in hex. The first row's previous is "". */
export function chainHash(previousHash: string, chainId: string, row: ChainedRow): string {
  return createHash("sha256").update(previousHash).update(canonicalRow(chainId, row)).digest("hex");
}

/** A row written since the switch: HMAC-SHA256(key, previous hash || canonical row), marked as keyed. */
export function keyedHash(key: Buffer, previousHash: string, chainId: string, row: ChainedRow): string {
  return KEYED + createHmac("sha256", key).update(previousHash).update(canonicalRow(chainId, row)).digest("hex");
}

/**
 * The head's seal: "hmac-sha256:<seq>:<hmac>", naming the row it signs in
 * clear so that a check can tell rows added without the key from a head set
 * back. Its input has another shape than a row's, so no row hash is a seal.
 */
export function headSeal(key: Buffer, chainId: string, head: ChainHead): string {
  const signed = JSON.stringify(["keyport.activity-head", chainId, head.seq, head.hash]);
  return `${KEYED}${head.seq}:${createHmac("sha256", key).update(signed).digest("hex")}`;
}

/** Whether `seal` is the key's signature of `head`, compared in constant time. */
export function sealSigns(key: Buffer, chainId: string, head: ChainHead, seal: string): boolean {
  const expected = Buffer.from(headSeal(key, chainId, head));
  const actual = Buffer.from(seal);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export interface ChainProblem {
  /** The sequence number of the first row that is wrong or missing. */
  seq: number;
  /** "unsigned": rows (or a whole chain) added without the key; only a person's audit:key signs them, once read. */
  problem: "changed" | "removed" | "cut_off" | "beyond_head" | "unsigned" | "unrecorded_key";
  message: string;
}

type StoredRow = ChainedRow & { hash: string };

/**
 * Walks the chain from row 1 and names the first row that was changed or
 * removed, or the end cut off; null when every row and the head agree. `rows`
 * in any order. With `key`, keyed rows are checked with it and the head must
 * carry a seal made with it (a database, or an export of this release); with
 * none, the chain is checked as before the switch (an older export file).
 */
export function verifyChain(chainId: string, rows: readonly StoredRow[], head: SealedHead, key: Buffer | null) {
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
    if (Number.isNaN(new Date(row.createdAt).getTime())) {
      return problem(row.seq, "changed", `row ${row.seq} was changed: its time is not a time`);
    }
    if (key && isTeamChain(chainId) && !row.hash.startsWith(KEYED)) {
      // Team chains began after the switch: an unkeyed row in one was written without the key.
      return problem(row.seq, "changed", `row ${row.seq} was changed: it is not signed with the deployment's key`);
    }
    if (key && row.hash.startsWith(KEYED)) {
      if (keyedHash(key, previous, chainId, row) !== row.hash) {
        return problem(
          row.seq,
          "changed",
          `row ${row.seq} was changed, or a row before it: its signature no longer matches`,
        );
      }
    } else if (chainHash(previous, chainId, row) !== row.hash) {
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
  return key ? checkSeal(chainId, sorted, head, key) : null;
}

/**
 * The seal, once every row holds: it must sign the head, an empty chain's too
 * (signed when the account is made); a seal on an earlier row leaves the rows
 * after it unsigned.
 */
function checkSeal(chainId: string, rows: readonly StoredRow[], head: SealedHead, key: Buffer): ChainProblem | null {
  const sealed = new RegExp(`^${KEYED}(\\d+):[0-9a-f]{64}$`).exec(head.seal);
  if (!sealed && isTeamChain(chainId) && rows.length > 0) {
    // A team chain is signed from its start (made signed, or started by audit:start-team-chains), and every row the
    // app adds moves the seal: a chain with rows and no seal had it removed, and nothing says what went with it. Never
    // "unsigned", which audit:key would sign (an attack review cut a chain's end, cleared its seal, and was told to).
    return problem(
      head.seq,
      "changed",
      `the team's chain has ${rows.length} row(s) but no signature of the deployment's key, which it carries from its ` +
        "start: the signature was removed, and rows may have been cut off its end or rewritten",
    );
  }
  if (!sealed) {
    // Nothing here tells a chain written before the switch from one rewritten without the key and its seal cleared:
    // a person decides, and only audit:key signs (docs/operations.md).
    return problem(
      1,
      "unsigned",
      "the chain carries no signature of the deployment's key: it was written before the switch and never signed, or " +
        `its signature was removed; read its rows, then sign it with ${signCommand(chainId)}`,
    );
  }
  const seq = Number(sealed[1]);
  if (seq > head.seq) {
    const cut = seq === head.seq + 1 ? `row ${seq} was` : `rows ${head.seq + 1} to ${seq} were`;
    return problem(head.seq + 1, "cut_off", `${cut} removed from the end (the signed head names row ${seq})`);
  }
  const signed = seq === 0 ? { hash: "" } : rows[seq - 1];
  if (!signed || !sealSigns(key, chainId, { seq, hash: signed.hash }, head.seal)) {
    // Rows up to the last signed one are held by its signature, which passed: the change is after it.
    const lastSigned = rows.slice(0, seq).findLast((row) => row.hash.startsWith(KEYED))?.seq ?? 0;
    const which = lastSigned + 1 === seq ? `row ${seq} was` : `one of rows ${lastSigned + 1} to ${seq} was`;
    return problem(lastSigned + 1, "changed", `${which} changed: the signed head no longer matches row ${seq}`);
  }
  if (seq === head.seq) return null;
  if (rows[seq]!.hash.startsWith(KEYED)) {
    // The app moves a seal that signs the head with the keyed row it adds: an older seal was put back.
    return problem(
      seq + 1,
      "cut_off",
      `the signed head was set back to row ${seq} though row ${seq + 1} is signed: rows after row ${head.seq} may have been removed`,
    );
  }
  // The app leaves the seal behind rows added without the key, also under keyed rows it adds after them (lib/audit.ts).
  const span = seq + 1 === head.seq ? `row ${head.seq} was` : `rows ${seq + 1} to ${head.seq} were`;
  return problem(
    seq + 1,
    "unsigned",
    `${span} added after the signed row ${seq}, starting without the key (by an instance of the previous release, ` +
      `or straight into the database); read them, then sign with ${signCommand(chainId)}`,
  );
}

/** The operator command that signs this chain once a person has read it. */
const signCommand = (chainId: string) => (isTeamChain(chainId) ? "audit:key --team" : "audit:key --email");

function problem(seq: number, kind: ChainProblem["problem"], message: string): ChainProblem {
  return { seq, problem: kind, message };
}
