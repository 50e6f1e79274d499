import "server-only";
import { z } from "zod";
import { emailSchema } from "../auth/credentials.schema";
import { db } from "../db";
import { addMember, createTeam, listMembers, removeMember, setRole } from "../teams/members";
import { ROLES } from "../teams/roles";
import { teamSlugSchema } from "../teams/slug";
import { NotFoundError, OPERATOR, required, userByEmail, type Flags } from "./command-support";

// The team commands. The operator is not a member and no role limits it; the
// rules that hold for everyone (a team keeps an owner, no one joins twice, a
// person owns at most five teams) are checked in lib/teams, as for the dashboard.

const roleSchema = z.enum(ROLES, { error: `Use one of ${ROLES.join(", ")}.` });

/** The team with this slug, or exit 1 naming it. */
export async function teamBySlug(flags: Flags) {
  const slug = required(teamSlugSchema, flags.team, "team");
  const team = await db.team.findUnique({ where: { slug }, select: { id: true, slug: true, name: true } });
  if (!team) throw new NotFoundError(`No team with the slug ${slug}.`);
  return team;
}

/** team:create --name NAME --owner EMAIL [--slug SLUG]: prints the team with its slug. */
export async function createTeamCommand(flags: Flags) {
  const owner = await userByEmail(required(emailSchema, flags.owner, "owner"));
  const name = required(z.string(), flags.name, "name");
  const team = await createTeam(OPERATOR(owner.id), { name, slug: flags.slug });
  return { id: team.id, slug: team.slug, name: team.name, owner: owner.email };
}

/** team:add-member --team SLUG --email EMAIL --role ROLE: an existing account. */
export async function addMemberCommand(flags: Flags) {
  const team = await teamBySlug(flags);
  const role = required(roleSchema, flags.role, "role");
  const user = await userByEmail(required(emailSchema, flags.email, "email"));
  await addMember(OPERATOR(user.id), team.id, user.id, role);
  return { team: team.slug, email: user.email, role };
}

/** team:set-role --team SLUG --email EMAIL --role ROLE. */
export async function setRoleCommand(flags: Flags) {
  const team = await teamBySlug(flags);
  const role = required(roleSchema, flags.role, "role");
  const user = await userByEmail(required(emailSchema, flags.email, "email"));
  await setRole(OPERATOR(user.id), team.id, user.id, role);
  return { team: team.slug, email: user.email, role };
}

/** team:remove-member --team SLUG --email EMAIL: their keys in the team are revoked. */
export async function removeMemberCommand(flags: Flags) {
  const team = await teamBySlug(flags);
  const user = await userByEmail(required(emailSchema, flags.email, "email"));
  const revoked = await removeMember(OPERATOR(user.id), team.id, user.id);
  return { team: team.slug, email: user.email, revoked_keys: revoked };
}

/** team:members --team SLUG. */
export async function membersCommand(flags: Flags) {
  const team = await teamBySlug(flags);
  const members = await listMembers(team.id);
  return {
    team: team.slug,
    name: team.name,
    members: members.map((m) => ({ email: m.email, role: m.role, since: m.since.toISOString() })),
  };
}
