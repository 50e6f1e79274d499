import "server-only";
import { headSeal, teamChainId, verifyChain, type ChainProblem, type SealedHead } from "./audit-chain";
import { checkTeamChain, loadChain, loadTeamChain } from "./audit-chain-store";
import type { Db } from "./db";

// The switch to a keyed activity chain (`admin audit:key`, which the
// operator runs once after the upgrade, and again for chains they have read:
// nothing runs it for them, docs/operations.md): it signs the head of every
// chain that has none yet, so that from then on rewriting the chain takes the
// key, whether or not the account or team writes another row. It never
// re-signs a row: old rows keep their SHA-256 hashes, and the next row the app
// writes commits to them.
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
  /** Chains whose head was signed by this run, accounts' and teams'. */
  signed: { accounts: number; teams: number };
  /** Chains that failed their check, with what failed: nothing was signed. */
  refused: { owner: string; message: string }[];
}

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/** One chain as signing sees it: who it is, how to read it, and how to sign its head. */
interface Chain {
  kind: "accounts" | "teams";
  chainId: string;
  /** Takes the head's row lock: the app's own writes to this chain wait for the transaction. */
  lock(tx: Tx): Promise<unknown>;
  load(client: Tx | Db): Promise<{ owner: string; head: SealedHead }>;
  /** The chain's check with the key: for a team, its keys too (each needs its "created" row). */
  check(client: Tx | Db, key: Buffer): Promise<ChainProblem | null>;
  seal(tx: Tx, seal: string): Promise<unknown>;
}

function accountChain(userId: string): Chain {
  return {
    kind: "accounts",
    chainId: userId,
    lock: (tx) => tx.user.update({ where: { id: userId }, data: { auditSeq: { increment: 0 } } }),
    load: async (client) => {
      const { email, head } = await loadChain(client, userId);
      return { owner: `${email} (${userId})`, head };
    },
    check: async (client, key) => {
      const { head, rows } = await loadChain(client, userId);
      return verifyChain(userId, rows, head, key);
    },
    seal: (tx, auditSeal) => tx.user.update({ where: { id: userId }, data: { auditSeal } }),
  };
}

function teamChain(teamId: string): Chain {
  return {
    kind: "teams",
    chainId: teamChainId(teamId),
    lock: (tx) => tx.team.update({ where: { id: teamId }, data: { auditSeq: { increment: 0 } } }),
    load: async (client) => {
      const { slug, head } = await loadTeamChain(client, teamId);
      return { owner: `team ${slug} (${teamId})`, head };
    },
    check: async (client, key) => (await checkTeamChain(client, teamId, key)).problem,
    seal: (tx, auditSeal) => tx.team.update({ where: { id: teamId }, data: { auditSeal } }),
  };
}

/** Every account's and team's chain, or only the one given. */
export async function signChains(
  client: Db,
  key: Buffer,
  only?: { userId: string } | { teamId: string },
): Promise<SigningResult> {
  const chains: Chain[] = [];
  if (!only || "userId" in only) {
    const users = await client.user.findMany({
      where: only ? { id: only.userId } : {},
      orderBy: { createdAt: "asc" },
      select: { id: true },
    });
    chains.push(...users.map(({ id }) => accountChain(id)));
  }
  if (!only || "teamId" in only) {
    const teams = await client.team.findMany({
      where: only ? { id: only.teamId } : {},
      orderBy: { createdAt: "asc" },
      select: { id: true },
    });
    chains.push(...teams.map(({ id }) => teamChain(id)));
  }
  const unsigned: Chain[] = [];
  const refused: SigningResult["refused"] = [];
  for (const chain of chains) {
    const { owner } = await chain.load(client);
    const problem = await chain.check(client, key);
    if (problem?.problem === "unsigned") unsigned.push(chain);
    else if (problem) refused.push({ owner, message: problem.message });
  }
  const signed = { accounts: 0, teams: 0 };
  if (refused.length > 0) return { signed, refused };

  for (const chain of unsigned) {
    const done = await client.$transaction(async (tx) => {
      await chain.lock(tx);
      const { owner, head } = await chain.load(tx);
      const problem = await chain.check(tx, key);
      if (problem && problem.problem !== "unsigned") return { owner, message: problem.message };
      if (problem) await chain.seal(tx, headSeal(key, chain.chainId, head));
      return problem ? 1 : 0;
    });
    if (typeof done === "number") signed[chain.kind] += done;
    else refused.push(done);
  }
  return { signed, refused };
}
