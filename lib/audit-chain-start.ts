import "server-only";
import { startTeamChain } from "./audit";
import type { Db } from "./db";

// Starting the team chains, once, at the release that made them
// (`admin audit:start-team-chains`, run by npm run db:deploy after the
// migration). Until then a team's key events were in its members' account
// chains, which keep them: a hash chain cannot be split and still verify. So a
// personal team's chain starts with a row that commits to its account chain's
// head as it is now (its number and hash, inside the new row's keyed hash),
// and every other team's starts empty, signed (lib/audit.ts startTeamChain).
// A team made since by this release has its chain signed when it is made
// (sealNewTeamChain), and the app starts any chain it finds unstarted before
// it adds a row, so a team an instance of the previous release made during a
// rolling deploy is started by its first change, or by the next run.
//
// It touches only a chain that is empty and unsigned, so running it again
// (every db:deploy does) changes nothing, and a chain with rows is never
// re-signed. An empty unsigned chain after the release is a team an instance
// of the previous release made during a rolling deploy, or a chain someone
// emptied without the key: the second would be signed anew, here or by the
// app's next row for that team. What that
// hides is bounded: every key made since still needs its "created" row
// (audit:verify, lib/audit-chain-store.ts), which no chain then holds.

export async function startTeamChains(client: Db): Promise<{ personal: number; other: number }> {
  const unstarted = await client.team.findMany({
    where: { auditSeq: 0, auditHash: "", auditSeal: "", auditEvents: { none: {} } },
    orderBy: { createdAt: "asc" },
    select: { id: true, personalOfId: true },
  });
  const started = { personal: 0, other: 0 };
  for (const { id, personalOfId } of unstarted) {
    const done = await client.$transaction(async (tx) => {
      // The team's row first, as every change takes it: the app's writes to this team wait for this transaction.
      await tx.team.update({ where: { id }, data: { auditSeq: { increment: 0 } } });
      return startTeamChain(tx, id);
    });
    if (done) started[personalOfId ? "personal" : "other"] += 1;
  }
  return started;
}
