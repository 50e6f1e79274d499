import "server-only";
import { headSeal, verifyChain } from "./audit-chain";
import { loadChain } from "./audit-chain-store";
import type { Db } from "./db";

// The switch to a keyed activity chain (`admin audit:key`, which the
// operator runs once after the upgrade, and again for chains they have read:
// nothing runs it for them, docs/operations.md): it signs the head of every
// chain that has none yet, so that from then on rewriting the chain takes the
// key, whether or not the account writes another row. It never re-signs a row: old rows
// keep their SHA-256 hashes, and the next row the app writes commits to them.
//
// It signs nothing unless every chain holds first. A chain that fails is
// named and left as it is, and so is every other one: signing the rest would
// bury the report under a success, and signing a broken chain would make its
// break look like something done after the switch, under the key.
//
// Rows written since by an instance without the key (the previous release,
// during a rolling deploy) follow the signed head unsigned; a later run, once
// the operator has read them, checks and signs them the same way.

export interface SigningResult {
  /** Chains whose head was signed by this run. */
  signed: number;
  /** Chains that failed their check, with what failed: nothing was signed. */
  refused: { userId: string; email: string; message: string }[];
}

/** Every account's chain, or only the one given. */
export async function signChains(client: Db, key: Buffer, only?: { userId: string }): Promise<SigningResult> {
  const users = await client.user.findMany({
    where: only ? { id: only.userId } : {},
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  const unsigned: string[] = [];
  const refused: SigningResult["refused"] = [];
  for (const { id } of users) {
    const { email, head, rows } = await loadChain(client, id);
    const problem = verifyChain(id, rows, head, key);
    if (problem?.problem === "unsigned") unsigned.push(id);
    else if (problem) refused.push({ userId: id, email, message: problem.message });
  }
  if (refused.length > 0) return { signed: 0, refused };

  let signed = 0;
  for (const userId of unsigned) {
    const done = await client.$transaction(async (tx) => {
      // The head row first: the app's own writes for this account wait for this transaction.
      await tx.user.update({ where: { id: userId }, data: { auditSeq: { increment: 0 } } });
      const { email, head, rows } = await loadChain(tx, userId);
      const problem = verifyChain(userId, rows, head, key);
      if (problem && problem.problem !== "unsigned") return { userId, email, message: problem.message };
      if (problem) await tx.user.update({ where: { id: userId }, data: { auditSeal: headSeal(key, userId, head) } });
      return problem ? 1 : 0;
    });
    if (typeof done === "number") signed += done;
    else refused.push(done);
  }
  return { signed, refused };
}
