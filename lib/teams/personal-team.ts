import "server-only";
import { randomBytes } from "node:crypto";
import { sealNewTeamChain } from "../audit";
import type { Db } from "../db";

// Every account has a personal team, made in the transaction that makes the
// account (lib/auth/accounts.ts, and the GitHub sign-in's adapter in
// lib/auth/options.ts); accounts made before teams got theirs from the
// migration that made the Team table. Its slug is "personal-" and 12 random
// hex digits: never taken from an email, unique, and never changed.

type Tx = Pick<Db, "team" | "membership">;

/** The name every personal team starts with. */
export const PERSONAL_TEAM_NAME = "Personal";

/** Makes the account's personal team, with the account as its owner. */
export async function createPersonalTeam(tx: Tx, userId: string): Promise<{ id: string; slug: string }> {
  const team = await tx.team.create({
    data: { slug: `personal-${randomBytes(6).toString("hex")}`, name: PERSONAL_TEAM_NAME, personalOfId: userId },
    select: { id: true, slug: true },
  });
  await tx.membership.create({ data: { teamId: team.id, userId, role: "owner" } });
  await sealNewTeamChain(tx, team.id);
  return team;
}

/** The id of the account's personal team; every account has one. */
export async function personalTeamId(tx: Pick<Db, "team">, userId: string): Promise<string> {
  const team = await tx.team.findUnique({ where: { personalOfId: userId }, select: { id: true } });
  if (!team) throw new Error(`account ${userId} has no personal team`);
  return team.id;
}
