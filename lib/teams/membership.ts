import "server-only";
import type { Db } from "../db";
import { db } from "../db";
import { DomainError } from "../domain-error";
import { can, isRole, PERMISSIONS, type Permission, type Role } from "./roles";
import { TWO_FACTOR_REQUIRED_REFUSAL } from "./policies";

// Who is in which team, read from the Membership table. Every team page,
// every team action and every key change asks here (or reads the same rows
// inside its transaction); nothing trusts a role the browser sent.

type Tx = Pick<Db, "membership" | "team">;

export interface TeamSummary {
  id: string;
  slug: string;
  name: string;
  personal: boolean;
  /** The account whose personal team this is; null for a team made as one. */
  personalOfId: string | null;
}

/** A signed-in person inside one team: the team, their role, and who they are. */
export interface TeamMember {
  team: TeamSummary;
  userId: string;
  role: Role;
  /**
   * The team requires two-factor sign-in (lib/teams/policies.ts) and this person has not turned it on: until they
   * do, they may see the key list and report a key leaked, nothing else (requirePermission refuses the rest).
   */
  twoFactorMissing: boolean;
}

/** What a person outside a team is told about it, or about anything of it: that it is not there (404, never 403). */
export const TEAM_NOT_FOUND = "That team was not found.";
export const teamNotFound = () => new DomainError("not_found", TEAM_NOT_FOUND);

const teamSelect = { id: true, slug: true, name: true, personalOfId: true } as const;
// A membership as the checks read it: the role, the team, and what the team's two-factor policy makes of the person.
const memberSelect = {
  role: true,
  team: { select: { ...teamSelect, requireTwoFactor: true } },
  user: { select: { totpEnabledAt: true } },
} as const;

const asMember = (
  userId: string,
  row: {
    role: string;
    team: Parameters<typeof summary>[0] & { requireTwoFactor: boolean };
    user: { totpEnabledAt: Date | null };
  },
): TeamMember => ({
  team: summary(row.team),
  userId,
  role: asRole(row.role),
  twoFactorMissing: row.team.requireTwoFactor && !row.user.totpEnabledAt,
});
const summary = (team: { id: string; slug: string; name: string; personalOfId: string | null }): TeamSummary => ({
  id: team.id,
  slug: team.slug,
  name: team.name,
  personal: team.personalOfId !== null,
  personalOfId: team.personalOfId,
});

function asRole(value: string): Role {
  // The column is written only from the roles table; anything else is a fault, never a permission.
  if (!isRole(value)) throw new Error(`unknown role in a membership: ${value}`);
  return value;
}

/** The person's membership of the team with this slug, or null when they are not in it (or it does not exist). */
export async function memberBySlug(userId: string, slug: string, client: Tx = db): Promise<TeamMember | null> {
  const row = await client.membership.findFirst({ where: { userId, team: { slug } }, select: memberSelect });
  return row ? asMember(userId, row) : null;
}

/** The person's membership of the team with this id, or null. Read it inside a transaction to act on it. */
export async function memberById(userId: string, teamId: string, client: Tx = db): Promise<TeamMember | null> {
  const row = await client.membership.findUnique({
    where: { teamId_userId: { teamId, userId } },
    select: memberSelect,
  });
  return row ? asMember(userId, row) : null;
}

/** A team by its id, or null. */
export async function teamById(teamId: string, client: Tx = db): Promise<TeamSummary | null> {
  const team = await client.team.findUnique({ where: { id: teamId }, select: teamSelect });
  return team ? summary(team) : null;
}

/** Every team the person is in, their personal team first, then by name: the header's switcher. */
export async function teamsOf(userId: string): Promise<(TeamSummary & { role: Role })[]> {
  const rows = await db.membership.findMany({
    where: { userId },
    select: { role: true, team: { select: teamSelect } },
  });
  return rows
    .map((row) => ({ ...summary(row.team), role: asRole(row.role) }))
    .toSorted(
      (a, b) => Number(b.personal) - Number(a.personal) || a.name.localeCompare(b.name) || a.slug.localeCompare(b.slug),
    );
}

/** The person's personal team (every account has one). */
export async function personalTeamOf(userId: string, client: Tx = db): Promise<TeamMember> {
  const team = await client.team.findUnique({ where: { personalOfId: userId }, select: teamSelect });
  if (!team) throw new Error(`account ${userId} has no personal team`);
  const member = await memberById(userId, team.id, client);
  if (!member) throw new Error(`account ${userId} is not in its personal team`);
  return member;
}

/**
 * What a member's view of the team's activity shows: who made each change, in a team with members; and where it
 * came from (address, browser), to the person themselves in their personal team and to roles with activity.origin,
 * who may also download the team's chain.
 */
export function activityShown(member: TeamMember): { showActor: boolean; showOrigin: boolean } {
  return {
    showActor: !member.team.personal,
    showOrigin: member.team.personal || can(member.role, "activity.origin"),
  };
}

/** The refusal for a member whose role does not allow something: it names the role and what it would take. */
export function roleRefusal(role: Role, permission: Permission): DomainError {
  const what = PERMISSIONS[permission].charAt(0).toLowerCase() + PERMISSIONS[permission].slice(1);
  return new DomainError(
    "invalid_request",
    `Your role in this team (${role}) does not allow this: “${what}” needs a role that has it. Ask an admin of the team.`,
  );
}

/** What a member held back by the team's two-factor policy may still do: see the key list, report a key leaked. */
const ALLOWED_WITHOUT_TWO_FACTOR: ReadonlySet<Permission> = new Set(["keys.view", "keys.report_leaked"]);

export const twoFactorRequired = () => new DomainError("invalid_request", TWO_FACTOR_REQUIRED_REFUSAL);

/** Throws when the team's two-factor policy holds this member back (lib/teams/policies.ts). */
export function refuseUntilTwoFactor(member: { twoFactorMissing?: boolean }): void {
  if (member.twoFactorMissing) throw twoFactorRequired();
}

/**
 * Throws the role's refusal unless the member's role has the permission, and the two-factor policy's refusal for
 * anything but seeing and reporting keys while it holds them back.
 */
export function requirePermission(member: { role: Role; twoFactorMissing?: boolean }, permission: Permission): void {
  if (member.twoFactorMissing && !ALLOWED_WITHOUT_TWO_FACTOR.has(permission)) throw twoFactorRequired();
  if (!can(member.role, permission)) throw roleRefusal(member.role, permission);
}
