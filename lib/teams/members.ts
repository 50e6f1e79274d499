import "server-only";
import { endRequestsOf } from "../keys/key-requests";
import { recordTeamAudit, sealNewTeamChain, type Actor } from "../audit";
import { db, type Db } from "../db";
import { DomainError } from "../domain-error";
import { log } from "../log";
import { queueMembershipChanged } from "../mail/team-notices";
import { DEFAULT_GRACE, type GracePeriod } from "../keys/grace";
import { handOverKey, rotateForDeparture, type HandedKey, type Handover, type RotatedKey } from "../keys/lifecycle";
import { statusWhere } from "../keys/status";
import { keyViewSelect, toKeyView } from "../keys/views";
import { memberById, requirePermission, teamNotFound } from "./membership";
import { can, serviceAccountKeyPermission, type Role } from "./roles";
import { serviceAccountInTeam } from "./service-accounts";
import { authorise, lockTeam } from "./team-lock";
import { newTeamSlugSchema, proposeSlug, SLUG_MAX } from "./slug";
import { teamNameSchema } from "./team-name";

// Teams and their members: made, joined, changed and left. Each change takes
// the team's row lock first (as every key change does, lib/keys/lifecycle.ts),
// so a role change and a key creation, or two removals, take turns, and the
// rule "a team always has an owner" is checked on what is committed.

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/** How many teams a person may own, their personal team not counted. */
export const OWNED_TEAMS_MAX = 5;
/** Why a departed member's keys stopped: on each key and in the activity log. */
export const LEFT_TEAM_REASON = "the member it belonged to left the team";

const refused = (message: string, field?: string) =>
  new DomainError("invalid_request", message, field ? { field } : {});

/** Who acts on a team's members: a person (whose role is checked) or the operator CLI (no role). */
export type MemberActor = Actor;

/** A member, as the team's activity names them: by id, and by the address they had then. */
async function memberDetails(tx: Tx, userId: string) {
  const user = await tx.user.findUnique({ where: { id: userId }, select: { email: true } });
  return { user_id: userId, email: user?.email ?? null };
}

/**
 * Makes a team with the person as its owner. The slug is the one given, or
 * proposed from the name (with -2, -3... when taken); a slug given and taken,
 * reserved or malformed is a field error. A person owns at most
 * OWNED_TEAMS_MAX teams besides their personal one.
 */
export async function createTeam(
  actor: Actor,
  input: { name: string; slug?: string | undefined },
): Promise<{ id: string; slug: string; name: string }> {
  const name = teamNameSchema.safeParse(input.name);
  if (!name.success) throw refused(name.error.issues[0]!.message, "name");
  if (input.slug !== undefined) {
    const given = newTeamSlugSchema.safeParse(input.slug);
    if (!given.success) throw refused(given.error.issues[0]!.message, "slug");
    try {
      return await insertTeam(actor, name.data, given.data);
    } catch (error) {
      throw error instanceof SlugTaken ? slugTaken() : error;
    }
  }
  const proposed = proposeSlug(name.data);
  if (!proposed)
    throw refused("Choose an address for the team: its name has no letters a to z to make one from.", "slug");
  // Two teams of one name made at once (two people, or one script) both find the same slug free before either
  // takes it: the one that loses takes the next free one, as it would have a moment later.
  for (let attempt = 1; ; attempt++) {
    try {
      return await insertTeam(actor, name.data, await freeSlug(proposed));
    } catch (error) {
      if (!(error instanceof SlugTaken) || attempt >= 5) throw error instanceof SlugTaken ? slugTaken() : error;
    }
  }
}

const slugTaken = () => refused("That address is taken: choose another.", "slug");

/** A slug another team took between the check and the insert (found by the check, or by its unique index). */
class SlugTaken extends Error {}

const isUniqueViolation = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";

async function insertTeam(
  actor: Actor,
  name: string,
  slug: string,
): Promise<{ id: string; slug: string; name: string }> {
  let team: { id: string; slug: string; name: string };
  try {
    team = await db.$transaction(async (tx) => {
      // The person's row first: two creations by one person take turns, so the limit holds.
      await tx.user.update({ where: { id: actor.userId }, data: { keysChangedAt: new Date() } });
      const owned = await tx.membership.count({
        where: { userId: actor.userId, role: "owner", team: { personalOfId: null } },
      });
      if (owned >= OWNED_TEAMS_MAX) {
        throw refused(
          `You already own ${OWNED_TEAMS_MAX} teams, the most allowed. Hand one over or delete one first.`,
          "name",
        );
      }
      if (await tx.team.findUnique({ where: { slug }, select: { id: true } })) throw new SlugTaken();
      const made = await tx.team.create({
        data: { slug, name },
        select: { id: true, slug: true, name: true },
      });
      await tx.membership.create({ data: { teamId: made.id, userId: actor.userId, role: "owner" } });
      await sealNewTeamChain(tx, made.id);
      await recordTeamAudit(tx, made.id, actor, "team.created", null, { name: made.name, slug: made.slug });
      return made;
    });
  } catch (error) {
    // On PostgreSQL two transactions can both pass the check; the slug's unique index stops the second.
    if (isUniqueViolation(error)) throw new SlugTaken();
    throw error;
  }
  log.info("team.created", { user_id: actor.userId, team_id: team.id });
  return team;
}

/** Renames the team (owners; the operator). Its slug, in every link to it, stays as it is. */
export async function renameTeam(actor: MemberActor, teamId: string, name: string): Promise<string> {
  const parsed = teamNameSchema.safeParse(name);
  if (!parsed.success) throw refused(parsed.error.issues[0]!.message, "name");
  await db.$transaction(async (tx) => {
    await lockTeam(tx, teamId);
    await authorise(tx, actor, teamId, (member) => requirePermission(member, "team.rename"));
    const before = await tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { name: true } });
    if (before.name === parsed.data) return;
    await tx.team.update({ where: { id: teamId }, data: { name: parsed.data } });
    await recordTeamAudit(tx, teamId, actor, "team.renamed", null, { from: before.name, to: parsed.data });
  });
  log.info("team.renamed", { team_id: teamId, user_id: actor.userId });
  return parsed.data;
}

/** The proposed slug, or with -2, -3... until one is free (cut so the suffix fits). */
async function freeSlug(proposed: string): Promise<string> {
  // Every candidate starts with this stem: a proposed slug at the maximum length is cut to make room for its
  // suffix, so looking up only the slugs that start with the whole of it missed a "-2" already taken.
  const stem = proposed.slice(0, SLUG_MAX - "-999".length).replace(/-+$/, "");
  const taken = new Set(
    (await db.team.findMany({ where: { slug: { startsWith: stem } }, select: { slug: true } })).map((t) => t.slug),
  );
  // Every candidate passes the rules a typed slug does ("Personal stuff" would otherwise become personal-stuff-2).
  const free = (slug: string) => !taken.has(slug) && newTeamSlugSchema.safeParse(slug).success;
  if (free(proposed)) return proposed;
  for (let n = 2; n < 1000; n++) {
    const suffix = `-${n}`;
    const candidate = `${proposed.slice(0, SLUG_MAX - suffix.length).replace(/-+$/, "")}${suffix}`;
    if (free(candidate)) return candidate;
  }
  throw refused("Choose an address for the team: none could be made from its name.", "slug");
}

/** Refuses making someone an owner of one team more than OWNED_TEAMS_MAX (their personal team not counted). */
export async function refuseOverOwnedTeams(tx: Tx, userId: string, teamId: string, field: string) {
  // The person's row first, as createTeam takes it: on PostgreSQL two promotions of one person in two teams (or a
  // promotion beside a creation) take turns, so the count below cannot be raced past.
  await tx.user.update({ where: { id: userId }, data: { keysChangedAt: new Date() } });
  const owned = await tx.membership.count({
    where: { userId, role: "owner", team: { personalOfId: null }, teamId: { not: teamId } },
  });
  if (owned >= OWNED_TEAMS_MAX) {
    throw refused(`That person already owns ${OWNED_TEAMS_MAX} teams, the most allowed.`, field);
  }
}

/** Adds an existing account to the team; someone already in it is a field error. */
export async function addMember(actor: MemberActor, teamId: string, userId: string, role: Role): Promise<void> {
  await db.$transaction(async (tx) => {
    await lockTeam(tx, teamId);
    await authorise(tx, actor, teamId, (member) =>
      requirePermission(member, role === "owner" ? "members.manage_owners" : "members.manage"),
    );
    const team = await tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { personalOfId: true } });
    if (team.personalOfId)
      throw refused("A personal team has its owner alone: make a team to work with others.", "email");
    // A team with nobody in it was deleted (a live team always has an owner): it stays deleted (second attack review).
    if ((await tx.membership.count({ where: { teamId } })) === 0) throw teamNotFound();
    if (await memberById(userId, teamId, tx)) throw refused("That person is already a member of this team.", "email");
    if (role === "owner") await refuseOverOwnedTeams(tx, userId, teamId, "role");
    await tx.membership.create({ data: { teamId, userId, role } });
    await recordTeamAudit(tx, teamId, actor, "team.member_added", null, { ...(await memberDetails(tx, userId)), role });
    const added = await memberById(userId, teamId, tx);
    await queueMembershipChanged(tx, added!.team, userId, "added", role, new Date());
  });
  log.info("team.member_added", { team_id: teamId, user_id: userId, role });
}

/** The other owners of the team (besides this member), under the lock. */
async function otherOwners(tx: Tx, teamId: string, userId: string) {
  return tx.membership.count({ where: { teamId, role: "owner", userId: { not: userId } } });
}

/** Changes a member's role. Owners' roles, and making owners, need an owner; the last owner stays one. */
export async function setRole(actor: MemberActor, teamId: string, userId: string, role: Role): Promise<void> {
  await db.$transaction(async (tx) => {
    await lockTeam(tx, teamId);
    const target = await memberById(userId, teamId, tx);
    if (!target) throw refused("That person is not a member of this team.", "email");
    await authorise(tx, actor, teamId, (member) =>
      requirePermission(
        member,
        target.role === "owner" || role === "owner" ? "members.manage_owners" : "members.manage",
      ),
    );
    if (role === "owner" && target.role !== "owner") await refuseOverOwnedTeams(tx, userId, teamId, "role");
    if (target.role === "owner" && role !== "owner" && (await otherOwners(tx, teamId, userId)) === 0) {
      throw refused("A team always has an owner: make someone else an owner first.", "role");
    }
    if (target.role === role) return;
    await tx.membership.update({ where: { teamId_userId: { teamId, userId } }, data: { role } });
    // Invitations they sent that their new role could not send are withdrawn (attack review of members).
    await withdrawInvitationsOf(tx, actor, teamId, userId, new Date(), (invited) =>
      can(role, invited === "owner" ? "members.manage_owners" : "members.manage"),
    );
    await recordTeamAudit(tx, teamId, actor, "team.role_changed", null, {
      ...(await memberDetails(tx, userId)),
      from: target.role,
      to: role,
    });
    await queueMembershipChanged(tx, target.team, userId, "role_changed", role, new Date());
  });
  log.info("team.role_changed", { team_id: teamId, user_id: userId, role });
}

/**
 * What a departure does to each key the member knows in the team. Their own keys: revoked, unless handed to a
 * service account (`handovers`). Service accounts' keys they made or rotated (they know those secrets): kept working,
 * unless rotated (the recommended choice) or revoked (`known`).
 */
export interface DeparturePlan {
  handovers?: readonly Handover[];
  /**
   * Every key of the member's own in use goes to this service account, not rotated (the operator's
   * `--transfer-to`), chosen under the team's lock, so a key made meanwhile is not missed. Decoys are revoked.
   */
  handOverAllTo?: string;
  /** "rotate": a service account's key they know (its replacement stays the service account's); "revoke": any. */
  keys?: readonly { publicId: string; action: "rotate" | "revoke"; grace?: GracePeriod }[];
}

/** What a departure did to the member's keys in the team. */
export interface Departure {
  revoked: string[];
  handedOver: HandedKey[];
  /** Service accounts' keys they knew, rotated: each new secret is shown once to whoever removed them. */
  rotated: { key: string; replacement: RotatedKey }[];
  /** Service accounts' keys they knew, left working as they are: rotate them. */
  kept: string[];
  /** Invitations they sent that were still waiting, withdrawn with them. */
  withdrawnInvitations: number;
}

/** Why a key stopped when a service account's key was revoked in a departure of the member who knew it. */
export const KNOWN_BY_LEAVER_REASON = "its maker left the team";

/**
 * Ends a membership at once (a removal, or the member leaving), in one
 * transaction:
 * - The member's own keys in the team are revoked, with the reason
 *   LEFT_TEAM_REASON and an activity row each, so their next request is
 *   refused on every instance; except each key a handover names, which goes to
 *   a service account of the team instead (lib/keys/lifecycle.ts
 *   handOverKey), rotated or not.
 * - Service accounts' keys the member made or rotated keep working (they are
 *   the team's, not theirs), but the member knows their secrets: `keys` rotates
 *   or revokes them.
 * - Invitations they sent that are still waiting are withdrawn (attack review:
 *   a removed admin's invitation let someone in afterwards).
 * A handover or a rotation needs the role that manages a service account's
 * keys of that environment; a choice naming a key the member does not know, or
 * a service account of another team, changes nothing. A member leaving may
 * not rotate: they would be shown the new secret. The last owner cannot leave
 * or be removed.
 */
export async function removeMember(
  actor: MemberActor,
  teamId: string,
  userId: string,
  plan: DeparturePlan = {},
): Promise<Departure> {
  const now = new Date();
  const departure = await db.$transaction(async (tx): Promise<Departure> => {
    await lockTeam(tx, teamId);
    const target = await memberById(userId, teamId, tx);
    if (!target) throw refused("That person is not a member of this team.", "email");
    // Its owner stays; anyone else (only an operator's mistake could have put them there) may leave or be removed.
    if (target.team.personalOfId === userId) throw refused("A personal team keeps its owner.", "email");
    const leaving = actor.userId === userId && (actor.kind ?? "person") === "person";
    // Leaving needs no permission; removing someone else needs the role that manages theirs.
    const acting = leaving
      ? target
      : await authorise(tx, actor, teamId, (member) =>
          requirePermission(member, target.role === "owner" ? "members.manage_owners" : "members.manage"),
        );
    if (target.role === "owner" && (await otherOwners(tx, teamId, userId)) === 0) {
      throw refused(
        leaving
          ? "You are this team's last owner: make someone else an owner before you leave."
          : "A team always has an owner: make someone else an owner first.",
        "email",
      );
    }
    // Their requests for production keys end with their membership (lib/keys/key-requests.ts).
    await endRequestsOf(tx, teamId, userId, now);
    const usable = await tx.apiKey.findMany({ where: { teamId, userId, ...statusWhere("usable", now) } });
    const own = new Map(usable.filter((key) => !key.serviceAccountId).map((key) => [key.publicId, key]));
    const known = new Map(usable.filter((key) => key.serviceAccountId).map((key) => [key.publicId, key]));
    const leaver = await memberDetails(tx, userId);
    const chosen = new Set<string>();
    const choose = (publicId: string, keys: Map<string, (typeof usable)[number]>, needsRole = true) => {
      const field = `handover.${publicId}`;
      const key = keys.get(publicId);
      if (!key || chosen.has(publicId))
        throw refused("That key is not one of this member's keys in use in this team.", field);
      chosen.add(publicId);
      // What it takes to give a service account this key, or to change one of its keys.
      if (acting && needsRole)
        requirePermission(acting, serviceAccountKeyPermission(key.environment as "dev" | "prod"));
      return { key, field };
    };
    const refuseRotationWhenLeaving = (field: string) => {
      if (leaving)
        throw refused(
          "You know this key's secret, so a rotation now would show you the new one: leave it as it is, and an admin of the team rotates it.",
          field,
        );
    };

    const handedOver: HandedKey[] = [];
    const handovers = plan.handOverAllTo
      ? [...own.values()]
          .filter((key) => !key.decoy)
          .map((key) => ({ publicId: key.publicId, serviceAccountId: plan.handOverAllTo!, rotate: null }))
      : (plan.handovers ?? []);
    for (const handover of handovers) {
      const { key, field } = choose(handover.publicId, own);
      const serviceAccount = await serviceAccountInTeam(tx, teamId, handover.serviceAccountId, field);
      if (handover.rotate !== null) refuseRotationWhenLeaving(field);
      handedOver.push(await handOverKey(tx, actor, key, leaver, serviceAccount, handover.rotate, now));
    }
    const revoked: string[] = [];
    const revoke = async (key: (typeof usable)[number], reason: string) => {
      const { count } = await tx.apiKey.updateMany({
        where: { id: key.id, revokedAt: null },
        data: { revokedAt: now, revokedReason: reason },
      });
      if (count !== 1) return;
      revoked.push(key.publicId);
      await recordTeamAudit(tx, teamId, actor, "key.revoked", key.publicId, { reason });
    };
    const rotated: Departure["rotated"] = [];
    const all = new Map([...own, ...known]);
    for (const choice of plan.keys ?? []) {
      if (choice.action === "revoke") {
        // Their own key needs no role to revoke (a departure does it anyway); a service account's key does.
        const { key } = choose(choice.publicId, all, known.has(choice.publicId));
        await revoke(key, key.serviceAccountId ? KNOWN_BY_LEAVER_REASON : LEFT_TEAM_REASON);
        continue;
      }
      const { key, field } = choose(choice.publicId, known);
      refuseRotationWhenLeaving(field);
      rotated.push({
        key: key.publicId,
        replacement: await rotateForDeparture(tx, actor, key, choice.grace ?? DEFAULT_GRACE, now),
      });
    }
    for (const key of own.values()) if (!chosen.has(key.publicId)) await revoke(key, LEFT_TEAM_REASON);
    const kept = [...known.keys()].filter((publicId) => !chosen.has(publicId));
    const withdrawnInvitations = await withdrawInvitationsOf(tx, actor, teamId, userId, now);

    await tx.membership.delete({ where: { teamId_userId: { teamId, userId } } });
    await recordTeamAudit(tx, teamId, actor, "team.member_removed", null, {
      ...leaver,
      role: target.role,
      left: leaving,
      revoked_keys: revoked.length,
      transferred_keys: handedOver.length,
      ...(rotated.length > 0 ? { rotated_service_account_keys: rotated.length } : {}),
      ...(kept.length > 0 ? { known_service_account_keys_kept: kept.length } : {}),
      ...(withdrawnInvitations > 0 ? { withdrawn_invitations: withdrawnInvitations } : {}),
    });
    // Told which keys they made go on working for the team (handed over, or a service account's), not to use them.
    const stillWorking = handedOver.length + rotated.length + kept.length;
    await queueMembershipChanged(tx, target.team, userId, "removed", null, now, stillWorking);
    return { revoked, handedOver, rotated, kept, withdrawnInvitations };
  });
  log.info("team.member_removed", {
    team_id: teamId,
    user_id: userId,
    revoked_keys: departure.revoked.length,
    transferred_keys: departure.handedOver.length,
  });
  return departure;
}

/**
 * Withdraws the waiting invitations a member sent, when they leave the team or
 * their new role could not send them; each with an activity row. Returns how
 * many.
 */
async function withdrawInvitationsOf(
  tx: Tx,
  actor: MemberActor,
  teamId: string,
  userId: string,
  now: Date,
  stillAllowed: (role: Role) => boolean = () => false,
): Promise<number> {
  const waiting = await tx.invitation.findMany({
    where: { teamId, invitedById: userId, acceptedAt: null, revokedAt: null },
  });
  let withdrawn = 0;
  for (const invitation of waiting) {
    if (stillAllowed(invitation.role as Role)) continue;
    await tx.invitation.update({ where: { id: invitation.id }, data: { revokedAt: now } });
    await recordTeamAudit(tx, teamId, actor, "team.invitation_revoked", null, {
      email: invitation.email,
      role: invitation.role,
      reason: "the member who sent it left the team or lost the role to send it",
    });
    withdrawn += 1;
  }
  return withdrawn;
}

/**
 * The keys a departure would act on, for the removal page: the member's own keys in use in the team, and the service
 * accounts' keys in use that they made or rotated (so know).
 */
export async function departingKeys(teamId: string, userId: string, now = new Date()) {
  const rows = await db.apiKey.findMany({
    where: { teamId, userId, ...statusWhere("usable", now) },
    select: keyViewSelect,
    orderBy: { createdAt: "asc" },
  });
  const views = rows.map((row) => toKeyView(row, now));
  return {
    own: views.filter((key) => !key.serviceAccount),
    known: views.filter((key) => key.serviceAccount),
  };
}

/** Why a deleted team's keys stopped: on each key and in the activity log. */
export const TEAM_DELETED_REASON = "the team was deleted";

/**
 * Deletes a team (owners; the operator): every key of it still in use is
 * revoked at once, with TEAM_DELETED_REASON and an activity row each, every
 * member is told and removed, and the team's pages answer 404 from then on.
 * The team's row, keys and usage stay, so the history (and the activity
 * chains that name its keys) still verify, and its slug is never used again.
 * The person must type the team's slug to confirm. A personal team is never
 * deleted. Returns the revoked keys' ids.
 */
export async function deleteTeam(actor: MemberActor, teamId: string, confirmSlug: string): Promise<string[]> {
  const now = new Date();
  const revoked = await db.$transaction(async (tx) => {
    await lockTeam(tx, teamId);
    await authorise(tx, actor, teamId, (member) => requirePermission(member, "team.delete"));
    const team = await tx.team.findUniqueOrThrow({
      where: { id: teamId },
      select: { id: true, slug: true, name: true, personalOfId: true },
    });
    if (team.personalOfId) throw refused("A personal team cannot be deleted.", "confirm");
    if (confirmSlug.trim() !== team.slug)
      throw refused(`Type the team's address, ${team.slug}, to confirm.`, "confirm");
    const keys = await tx.apiKey.findMany({
      where: { teamId, ...statusWhere("usable", now) },
      select: { id: true, publicId: true },
    });
    for (const key of keys) {
      const { count } = await tx.apiKey.updateMany({
        where: { id: key.id, revokedAt: null },
        data: { revokedAt: now, revokedReason: TEAM_DELETED_REASON },
      });
      if (count === 1)
        await recordTeamAudit(tx, teamId, actor, "key.revoked", key.publicId, { reason: TEAM_DELETED_REASON });
    }
    const members = await tx.membership.findMany({ where: { teamId }, select: { userId: true } });
    for (const { userId } of members) {
      await queueMembershipChanged(tx, team, userId, "deleted", null, now);
    }
    await tx.membership.deleteMany({ where: { teamId } });
    await recordTeamAudit(tx, teamId, actor, "team.deleted", null, { revoked_keys: keys.length });
    return keys.map((key) => key.publicId);
  });
  log.info("team.deleted", { team_id: teamId, user_id: actor.userId, revoked_keys: revoked.length });
  return revoked;
}

/** The team's members, owners first, then by email; for the members page and team:members. */
export async function listMembers(teamId: string) {
  const rows = await db.membership.findMany({
    where: { teamId },
    select: {
      role: true,
      createdAt: true,
      user: { select: { id: true, email: true, name: true, totpEnabledAt: true } },
    },
  });
  const order: Record<string, number> = { owner: 0, admin: 1, developer: 2, viewer: 3 };
  return rows
    .map((row) => ({
      userId: row.user.id,
      email: row.user.email,
      name: row.user.name,
      role: row.role as Role,
      since: row.createdAt,
      /** Whether they sign in with two-factor: the team's policy may require it (lib/teams/policies.ts). */
      twoFactor: row.user.totpEnabledAt !== null,
    }))
    .toSorted((a, b) => (order[a.role] ?? 9) - (order[b.role] ?? 9) || (a.email ?? "").localeCompare(b.email ?? ""));
}
