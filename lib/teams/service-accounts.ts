import "server-only";
import { recordTeamAudit, type Actor } from "../audit";
import { db, type Db } from "../db";
import { DomainError } from "../domain-error";
import { log } from "../log";
import { statusWhere } from "../keys/status";
import { requirePermission, teamNotFound } from "./membership";
import { shownNameSchema } from "./team-name";
import { authorise, lockTeam } from "./team-lock";

// Service accounts: named members of a team that are not people (CI, a
// backend, a partner's integration). They own keys, made for them or handed to
// them when a person leaves (lib/teams/members.ts), and no departure revokes
// those keys. A service account is a row of its own, not a User: it has no
// email, password or session, so no way of signing in can ever reach it, and
// nothing in the public API manages it.

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/** How many service accounts a team may have. */
export const SERVICE_ACCOUNTS_MAX = 50;

/** A service account's name: the same rules as a team's (it is shown in lists, the activity and mails). */
export const serviceAccountNameSchema = shownNameSchema("service account");

/** The form of a name that must be unique in its team: "CI" and "ci" (or a full-width "ＣＩ") are one name. */
export const nameKey = (name: string) => name.normalize("NFKC").toLocaleLowerCase("en");

export interface ServiceAccountSummary {
  id: string;
  name: string;
}

const refused = (message: string, field: string) => new DomainError("invalid_request", message, { field });

/**
 * The team's service account with this id, read in the change's transaction. One of another team, or none, is the
 * same field error: a form cannot reach across teams by naming an id.
 */
export async function serviceAccountInTeam(
  tx: Pick<Db, "serviceAccount">,
  teamId: string,
  id: string,
  field: string,
): Promise<ServiceAccountSummary> {
  const found = await tx.serviceAccount.findFirst({ where: { id, teamId }, select: { id: true, name: true } });
  if (!found) throw refused("Choose one of this team's service accounts.", field);
  return found;
}

/** The team's service account with this name (as the operator CLI names one), or a field error. */
export async function serviceAccountByName(teamId: string, name: string): Promise<ServiceAccountSummary> {
  const found = await db.serviceAccount.findUnique({
    where: { teamId_nameKey: { teamId, nameKey: nameKey(name.trim()) } },
    select: { id: true, name: true },
  });
  if (!found) throw refused(`This team has no service account named “${name.trim()}”.`, "serviceAccount");
  return found;
}

/**
 * Makes a service account in a team (admins and owners; the operator). Its
 * name is unique in the team, ignoring case and width. A personal team has
 * none: it has one person, who never leaves it.
 */
export async function createServiceAccount(actor: Actor, teamId: string, name: string): Promise<ServiceAccountSummary> {
  const parsed = serviceAccountNameSchema.safeParse(name);
  if (!parsed.success) throw refused(parsed.error.issues[0]!.message, "name");
  const made = await db.$transaction(async (tx: Tx) => {
    // The team's row lock, as every member change takes it: two creations of one name take turns.
    await lockTeam(tx, teamId);
    await authorise(tx, actor, teamId, (member) => requirePermission(member, "service_accounts.manage"));
    const team = await tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { personalOfId: true } });
    if (team.personalOfId) throw refused("A personal team has no service accounts: make a team to use them.", "name");
    // A team with nobody in it was deleted: it stays so.
    if ((await tx.membership.count({ where: { teamId } })) === 0) throw teamNotFound();
    if ((await tx.serviceAccount.count({ where: { teamId } })) >= SERVICE_ACCOUNTS_MAX)
      throw refused(`A team can have at most ${SERVICE_ACCOUNTS_MAX} service accounts.`, "name");
    const key = nameKey(parsed.data);
    if (
      await tx.serviceAccount.findUnique({ where: { teamId_nameKey: { teamId, nameKey: key } }, select: { id: true } })
    )
      throw refused("This team already has a service account of that name.", "name");
    const row = await tx.serviceAccount.create({
      data: { teamId, name: parsed.data, nameKey: key, createdById: actor.userId || null },
      select: { id: true, name: true },
    });
    await recordTeamAudit(tx, teamId, actor, "team.service_account_created", null, { service_account: row });
    return row;
  });
  log.info("team.service_account_created", { team_id: teamId, user_id: actor.userId, service_account_id: made.id });
  return made;
}

/** The team's service accounts by name, each with how many of its keys work now. */
export async function listServiceAccounts(teamId: string, now = new Date()) {
  const rows = await db.serviceAccount.findMany({
    where: { teamId },
    select: {
      id: true,
      name: true,
      createdAt: true,
      _count: { select: { apiKeys: { where: statusWhere("usable", now) } } },
    },
  });
  return rows
    .map((row) => ({ id: row.id, name: row.name, createdAt: row.createdAt, keysInUse: row._count.apiKeys }))
    .toSorted((a, b) => a.name.localeCompare(b.name));
}
