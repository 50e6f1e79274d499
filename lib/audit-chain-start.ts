import "server-only";
import { recordTeamAudit, sealNewTeamChain } from "./audit";
import type { Db } from "./db";
import { OPERATOR_USER_AGENT } from "./admin/operator-agent";

// Starting the team chains, once, at the release that made them
// (`admin audit:start-team-chains`, run by npm run db:deploy after the
// migration). Until then a team's key events were in its members' account
// chains, which keep them: a hash chain cannot be split and still verify. So a
// personal team's chain starts with a row that commits to its account chain's
// head as it is now (its number and hash, inside the new row's keyed hash),
// and every other team's starts empty, signed. A team made since by this
// release has its chain signed when it is made (lib/audit.ts sealNewTeamChain).
//
// It touches only a chain that is empty and unsigned, so running it again
// (every db:deploy does) changes nothing, and a chain with rows is never
// re-signed. An empty unsigned chain after the release is a team an instance
// of the previous release made during a rolling deploy, or a chain someone
// emptied without the key: the second would be signed anew here. What that
// hides is bounded: every key made since still needs its "created" row
// (audit:verify, lib/audit-chain-store.ts), which no chain then holds.

export async function startTeamChains(client: Db): Promise<{ personal: number; other: number }> {
  const unstarted = await client.team.findMany({
    where: { auditSeq: 0, auditHash: "", auditSeal: "", auditEvents: { none: {} } },
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  const started = { personal: 0, other: 0 };
  for (const { id } of unstarted) {
    const kind = await client.$transaction(async (tx) => {
      // The team's row first, then its owner's, as every change takes them: the app's writes wait for this one.
      const team = await tx.team.update({
        where: { id },
        data: { auditSeq: { increment: 0 } },
        select: { auditSeq: true, auditHash: true, auditSeal: true, personalOfId: true },
      });
      const events = await tx.teamAuditEvent.count({ where: { teamId: id } });
      if (team.auditSeq !== 0 || team.auditHash !== "" || team.auditSeal !== "" || events > 0) return null;
      await sealNewTeamChain(tx, id);
      if (!team.personalOfId) return "other" as const;
      const account = await tx.user.update({
        where: { id: team.personalOfId },
        data: { auditSeq: { increment: 0 } },
        select: { auditSeq: true, auditHash: true },
      });
      await recordTeamAudit(
        tx,
        id,
        { userId: team.personalOfId, ip: null, userAgent: OPERATOR_USER_AGENT, kind: "operator" },
        "team.chain_started",
        null,
        { account_chain: { seq: account.auditSeq, hash: account.auditHash } },
      );
      return "personal" as const;
    });
    if (kind) started[kind] += 1;
  }
  return started;
}
