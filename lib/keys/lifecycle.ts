import "server-only";
import { recordTeamAudit, type Actor } from "../audit";
import { db, type Db } from "../db";
import { getEnv } from "../env";
import { rateLimits } from "../env-schema";
import { log } from "../log";
import { queueKeyChanged, queueKeyReportedLeaked } from "../mail/account-notices";
import { queueTeamKeyNotice } from "../mail/team-notices";
import {
  memberById,
  personalTeamOf,
  refuseUntilTwoFactor,
  requirePermission,
  roleRefusal,
  teamById,
  teamNotFound,
} from "../teams/membership";
import {
  lifetimeRefusal,
  defaultsRefusal,
  mayReplaceKey,
  mayWidenPastDefaults,
  mustRequestProductionKey,
  PRODUCTION_ROTATION_REFUSAL,
  productionKeyRefusal,
  rotatedExpiry,
  ruleAllowsProductionKey,
  ruleAllowsReplacement,
} from "../teams/policies";
import { readTeamPolicy } from "../teams/policy-store";
import { lockTeam } from "../teams/team-lock";
import { canManageKey, can, serviceAccountKeyPermission, type Role } from "../teams/roles";
import { serviceAccountInTeam } from "../teams/service-accounts";
import { keyDigest } from "./digest";
import { keyNotFound, keyRefused } from "./errors";
import { displayFragment, generateApiKey, newKeyId, type KeyEnvironment } from "./format";
import { GRACE_PERIODS, type GracePeriod } from "./grace";
import {
  MAX_RATE_LIMIT,
  describeRestrictions,
  fromStoredRestrictions,
  restrictionsWithin,
  sameRestrictions,
  toStoredRestrictions,
  UNRESTRICTED,
  type KeyRestrictions,
} from "./restrictions";
import { keyStatus, statusWhere } from "./status";
import { keyViewSelect, toKeyView, type KeyView } from "./views";

// Every change to a key: each one takes the team's lock, checks the actor's
// membership and role (lib/teams/roles.ts) inside the transaction, and writes
// its activity row in the same transaction as the change.

export const ACTIVE_KEY_CAP = 100;

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

export interface IssuedKey {
  key: KeyView;
  /** The full secret: returned once, stored nowhere. */
  secret: string;
}

export interface RotatedKey extends IssuedKey {
  /** When the old key stops working: now, or the end of the grace period (never past its own expiry). */
  oldKeyStopsAt: Date;
}

/**
 * The first write of every key transaction: the team's row. On PostgreSQL its
 * lock makes the team's concurrent key changes take turns with each other and
 * with membership changes (lib/teams/members.ts takes it too), so the key cap
 * cannot be raced past and a role read after it holds until the commit.
 * SQLite has one writer anyway. The activity row then locks the actor's
 * account row (lib/audit.ts): one order, team then account, so no deadlock.
 */
async function lockTeamKeys(tx: Tx, teamId: string, now: Date) {
  await lockTeam(tx, teamId, now);
}

/** The team a key belongs to, or "not found"; a key never changes team, so this is read before the lock. */
async function teamOfKey(publicId: string): Promise<string> {
  const key = await db.apiKey.findUnique({ where: { publicId }, select: { teamId: true } });
  if (!key) throw keyNotFound();
  return key.teamId;
}

/**
 * The key, read after the team's lock, and the actor's right to change it. A
 * person outside the team gets "not found", exactly as for a key that does
 * not exist; a member whose role does not cover this key (lib/teams/roles.ts)
 * gets the role's refusal. The operator CLI and leak reports act for the
 * key's maker and are not limited by a role.
 */
async function findKeyToChange(tx: Tx, actor: Actor, teamId: string, publicId: string) {
  return (await findKeyAndRole(tx, actor, teamId, publicId)).key;
}

/** findKeyToChange, with the acting member's role (null for the operator CLI and reports, whom no role limits). */
async function findKeyAndRole(tx: Tx, actor: Actor, teamId: string, publicId: string) {
  const key = await tx.apiKey.findFirst({ where: { publicId, teamId } });
  if (!key) throw keyNotFound();
  if ((actor.kind ?? "person") !== "person") return { key, role: null };
  const member = await memberById(actor.userId, teamId, tx);
  if (!member) throw keyNotFound();
  refuseUntilTwoFactor(member);
  const environment = key.environment as KeyEnvironment;
  if (!canManageKey(member, { environment, userId: key.userId, serviceAccountId: key.serviceAccountId })) {
    throw roleRefusal(member.role, environment === "dev" ? "keys.manage_dev" : "keys.manage_any_prod");
  }
  return { key, role: member.role };
}

/**
 * A rotation issues a new secret: under "admins only" a developer may not rotate a production key (a leak report
 * still revokes it, without a replacement). The operator and reports act for the key's maker.
 */
async function refuseRotationByPolicy(tx: Tx, teamId: string, key: { environment: string }, role: Role | null) {
  if (role === null || key.environment !== "prod") return;
  const { productionKeys } = await readTeamPolicy(teamId, tx);
  if (!ruleAllowsReplacement(productionKeys, role)) throw keyRefused(PRODUCTION_ROTATION_REFUSAL);
}

/**
 * Every key that still works counts, a rotated one in its grace period too. Rotation and leak reports are not capped:
 * once the grace ends they leave the number of keys in use as it was.
 */
export async function refuseAboveKeyCap(tx: Tx, team: { id: string; personal: boolean }, now: Date) {
  const inUse = await tx.apiKey.count({ where: { teamId: team.id, ...statusWhere("usable", now) } });
  if (inUse < ACTIVE_KEY_CAP) return;
  throw keyRefused(
    team.personal
      ? `You already have ${ACTIVE_KEY_CAP} keys in use (keys in a rotation's grace period count), the most allowed. Revoke a key you no longer use, then create this one.`
      : `This team already has ${ACTIVE_KEY_CAP} keys in use (keys in a rotation's grace period count), the most allowed. Revoke a key it no longer uses, then create this one.`,
  );
}

/**
 * What a developer may do to a production key's access: narrow it, or set it within the team's defaults for new
 * production keys; under "developers with approval" only narrow it, since the access an admin approved is their
 * ceiling (the attack review of approvals). Admins, owners and the operator are not limited.
 */
async function refuseWideningByPolicy(
  tx: Tx,
  teamId: string,
  key: { environment: string; scopes: string; allowedIps: string | null; rateLimit: number | null },
  role: Role | null,
  next: KeyRestrictions,
) {
  if (role === null || key.environment !== "prod" || mayWidenPastDefaults(role)) return;
  const { productionKeys, productionDefaults } = await readTeamPolicy(teamId, tx);
  const { perKey } = rateLimits(getEnv(), "prod");
  // Narrowing is always allowed; anything else must keep within the team's defaults, and, under approval, within
  // what the admin approved.
  if (restrictionsWithin(next, fromStoredRestrictions(key), perKey)) return;
  if (mustRequestProductionKey(productionKeys, role)) {
    throw keyRefused(
      "This team's policy: a developer may narrow a production key's access, not widen it. Ask an admin, or request a new key.",
    );
  }
  const pastDefaults = defaultsRefusal(productionDefaults, next);
  if (pastDefaults) throw keyRefused(pastDefaults.message, pastDefaults.field);
}

export interface NewKey {
  label: string;
  environment: KeyEnvironment;
  expiresAt: Date | null;
  restrictions: KeyRestrictions;
  /** Whether the operator set the rate limit (it may then stay above the environment's default). */
  rateLimitByOperator: boolean;
  /** A decoy key (lib/keys/decoy.ts): never works, its use raises an alert. */
  decoy?: boolean;
}

/** What only the operator CLI may do, never the dashboard: a limit above the environment's default, and a key the team's policies refuse. */
export interface RestrictionPolicy {
  allowAboveDefaultLimit?: boolean;
  /** `key:create --override-policy`: the team's policies (lib/teams/policies.ts) are not applied, and the activity says so. */
  overrideTeamPolicy?: boolean;
}

/**
 * A user's own limit can only be tighter than the environment's (the field
 * error names the default); the operator's can be anything up to
 * MAX_RATE_LIMIT.
 */
export function refuseLimitAboveDefault(
  restrictions: KeyRestrictions,
  environment: KeyEnvironment,
  policy: RestrictionPolicy,
) {
  const limit = restrictions.rateLimit;
  if (limit === null) return;
  if (policy.allowAboveDefaultLimit) {
    if (limit > MAX_RATE_LIMIT) {
      throw keyRefused(`A key's rate limit can be at most ${MAX_RATE_LIMIT} requests per minute.`, "rateLimit");
    }
    return;
  }
  const { perKey } = rateLimits(getEnv(), environment);
  if (limit > perKey) {
    const name = environment === "prod" ? "Production" : "Development";
    throw keyRefused(
      `${name} keys allow at most ${perKey} requests per minute; enter ${perKey} or fewer, or leave it empty for the default.`,
      "rateLimit",
    );
  }
}

/** A key's owners: the team it belongs to, the member who made it, and the service account that owns it, if one does. */
export interface KeyOwners {
  teamId: string;
  userId: string;
  serviceAccountId: string | null;
}

/**
 * Who a replacement (a rotation's, a leak report's) belongs to: the person who
 * made it, since they are the one who was shown its secret. So removing that
 * person revokes it, and removing the old key's maker does not revoke what
 * someone else rotated and deployed (the attack review of teams: a member
 * rotated an owner's key, was removed, and the replacement kept working). The
 * operator CLI and reports act in the old key's maker's name. A service
 * account's key is replaced by a key of the same service account: no
 * departure revokes either.
 */
function replacementOwners(actor: Actor, old: KeyOwners): KeyOwners {
  return (actor.kind ?? "person") === "person"
    ? { teamId: old.teamId, userId: actor.userId, serviceAccountId: old.serviceAccountId }
    : { teamId: old.teamId, userId: old.userId, serviceAccountId: old.serviceAccountId };
}

export async function insertKey(tx: Tx, owners: KeyOwners, input: NewKey, now: Date) {
  const secret = generateApiKey(input.environment);
  const row = await tx.apiKey.create({
    data: {
      publicId: newKeyId(),
      teamId: owners.teamId,
      userId: owners.userId,
      serviceAccountId: owners.serviceAccountId,
      environment: input.environment,
      label: input.label,
      digest: keyDigest(secret),
      displayFragment: displayFragment(secret),
      expiresAt: input.expiresAt,
      createdAt: now,
      ...toStoredRestrictions(input.restrictions),
      rateLimitByOperator: input.rateLimitByOperator,
      decoy: input.decoy ?? false,
    },
    select: { id: true, ...keyViewSelect },
  });
  return { row, secret };
}

/** The replacement's own first activity row, so its page shows where it came from. */
async function recordReplacementCreated(
  tx: Tx,
  teamId: string,
  actor: Actor,
  replacementId: string,
  old: { publicId: string; environment: string; label: string },
  via: "rotation" | "leak",
) {
  await recordTeamAudit(tx, teamId, actor, "key.created", replacementId, {
    environment: old.environment,
    label: old.label,
    replaces: old.publicId,
    via,
  });
}

export async function createKey(
  actor: Actor,
  input: Omit<NewKey, "restrictions" | "rateLimitByOperator"> & {
    restrictions?: KeyRestrictions;
    /** The team that will own it; the actor's personal team when not said. */
    teamId?: string | undefined;
    /** The service account of that team that will own it (lib/teams/service-accounts.ts), if one will. */
    serviceAccountId?: string | undefined;
  },
  now = new Date(),
  policy: RestrictionPolicy = {},
): Promise<IssuedKey> {
  // A decoy never works, so it has no expiry, access or owner but its maker, whatever was sent (an attack review
  // posted them: an expiry made an armed decoy read "Expired" and leave the list, and could bring expiry mails).
  if (input.decoy) input = { ...input, expiresAt: null, restrictions: UNRESTRICTED, serviceAccountId: undefined };
  const restrictions = input.restrictions ?? UNRESTRICTED;
  refuseLimitAboveDefault(restrictions, input.environment, policy);
  const teamId = input.teamId ?? (await personalTeamOf(actor.userId)).team.id;
  const issued = await db.$transaction(async (tx) => {
    await lockTeamKeys(tx, teamId, now);
    // The role as it is now, under the team's lock: a role changed a moment ago is the one that counts.
    const member = await memberById(actor.userId, teamId, tx);
    if (!member) throw teamNotFound();
    if ((actor.kind ?? "person") === "person") refuseUntilTwoFactor(member);
    const permission = input.environment === "prod" ? "keys.create_prod" : "keys.create_dev";
    if ((actor.kind ?? "person") === "person" && !can(member.role, permission))
      throw roleRefusal(member.role, permission);
    const serviceAccount = input.serviceAccountId
      ? await serviceAccountInTeam(tx, teamId, input.serviceAccountId, "serviceAccount")
      : null;
    // A service account's production key is no one's own, so it takes the role that manages any production key.
    if (serviceAccount && (actor.kind ?? "person") === "person")
      requirePermission(member, serviceAccountKeyPermission(input.environment));
    // The team's policies, as they are under its lock, judged by the role of the member in whose name the key is
    // made (the operator's too, a service account's key included). Only the operator may pass them over
    // (key:create --override-policy), and the activity then says so.
    const teamPolicy = await readTeamPolicy(teamId, tx);
    // A decoy never works, so it has no lifetime to limit: it waits, for as long as it is left, to be found.
    const lifetime = input.decoy ? null : lifetimeRefusal(teamPolicy, input.environment, input.expiresAt, now);
    // A developer's production key keeps within the team's defaults (scopes, addresses); admins and owners may widen.
    const pastDefaults =
      input.environment === "prod" && !input.decoy && !mayWidenPastDefaults(member.role)
        ? defaultsRefusal(teamPolicy.productionDefaults, restrictions)
        : null;
    const refusal =
      input.environment === "prod" && !ruleAllowsProductionKey(teamPolicy.productionKeys, member.role)
        ? { message: productionKeyRefusal(teamPolicy.productionKeys), field: "environment" }
        : lifetime
          ? { message: lifetime, field: "expiry" }
          : pastDefaults;
    const overridden = refusal !== null && Boolean(policy.overrideTeamPolicy) && (actor.kind ?? "person") !== "person";
    if (refusal && !overridden) throw keyRefused(refusal.message, refusal.field);
    await refuseAboveKeyCap(tx, member.team, now);
    const rateLimitByOperator = Boolean(policy.allowAboveDefaultLimit) && restrictions.rateLimit !== null;
    const fields = {
      label: input.label,
      environment: input.environment,
      expiresAt: input.expiresAt,
      decoy: input.decoy,
    };
    const { row, secret } = await insertKey(
      tx,
      { teamId, userId: actor.userId, serviceAccountId: serviceAccount?.id ?? null },
      { ...fields, restrictions, rateLimitByOperator },
      now,
    );
    await recordTeamAudit(tx, teamId, actor, "key.created", row.publicId, {
      environment: input.environment,
      label: input.label,
      ...(serviceAccount ? { service_account: serviceAccount } : {}),
      ...(input.decoy ? { decoy: true } : describeRestrictions(restrictions)),
      ...(overridden ? { override_policy: true } : {}),
    });
    await queueKeyChanged(tx, actor.userId, row, "created", now);
    await queueTeamKeyNotice(tx, member.team, row, "created", actor.userId, now);
    return { key: toKeyView(row, now), secret };
  });
  log.info("key.created", { user_id: actor.userId, key_id: issued.key.id, environment: issued.key.environment });
  return issued;
}

/** Renames a key; `changed` is false when it already had the label (then nothing is written or logged). */
export async function renameKey(
  actor: Actor,
  publicId: string,
  label: string,
): Promise<{ key: KeyView; changed: boolean }> {
  const teamId = await teamOfKey(publicId);
  return db.$transaction(async (tx) => {
    await lockTeamKeys(tx, teamId, new Date());
    const key = await findKeyToChange(tx, actor, teamId, publicId);
    // The same name again changes nothing, so nothing is written or logged (a new user's walk found it logged).
    if (key.label === label) {
      const row = await tx.apiKey.findUniqueOrThrow({ where: { id: key.id }, select: keyViewSelect });
      return { key: toKeyView(row), changed: false };
    }
    const row = await tx.apiKey.update({ where: { id: key.id }, data: { label }, select: keyViewSelect });
    await recordTeamAudit(tx, teamId, actor, "key.renamed", publicId, { from: key.label, to: label });
    return { key: toKeyView(row), changed: true };
  });
}

/**
 * Changes what a key may do. The gate reads the row on every request, so the
 * change holds from the next request on every instance. The activity row
 * keeps the restrictions before and after.
 */
export async function updateRestrictions(
  actor: Actor,
  publicId: string,
  restrictions: KeyRestrictions,
  policy: RestrictionPolicy = {},
  now = new Date(),
): Promise<KeyView> {
  const teamId = await teamOfKey(publicId);
  const view = await db.$transaction(async (tx) => {
    await lockTeamKeys(tx, teamId, now);
    const { key, role } = await findKeyAndRole(tx, actor, teamId, publicId);
    const status = keyStatus(key, now);
    if (status === "revoked" || status === "expired") {
      throw keyRefused(
        `This key is ${status === "revoked" ? "revoked" : "expired"}: it no longer works, so there is nothing to restrict.`,
      );
    }
    await refuseWideningByPolicy(tx, teamId, key, role, restrictions);
    // The limit's owner changes only with the limit: an operator's stays the operator's while anyone edits the
    // rest, and an operator editing the rest does not make a user's limit the operator's.
    const limitChanged = restrictions.rateLimit !== key.rateLimit;
    const keepsOperatorLimit = !limitChanged && key.rateLimitByOperator;
    if (!keepsOperatorLimit) refuseLimitAboveDefault(restrictions, key.environment as KeyEnvironment, policy);
    const before = fromStoredRestrictions(key);
    if (sameRestrictions(before, restrictions))
      throw keyRefused("Nothing changed: the key already has these settings.");
    const rateLimitByOperator =
      restrictions.rateLimit !== null && (limitChanged ? Boolean(policy.allowAboveDefaultLimit) : keepsOperatorLimit);
    const row = await tx.apiKey.update({
      where: { id: key.id },
      data: { ...toStoredRestrictions(restrictions), rateLimitByOperator },
      select: keyViewSelect,
    });
    await recordTeamAudit(tx, teamId, actor, "key.restricted", publicId, {
      before: describeRestrictions(before),
      after: describeRestrictions(restrictions),
    });
    return toKeyView(row, now);
  });
  log.info("key.restricted", { user_id: actor.userId, key_id: publicId });
  return view;
}

function refuseUnlessActive(
  key: { revokedAt: Date | null; expiresAt: Date | null; successorId: string | null },
  now: Date,
  verb: string,
) {
  const status = keyStatus(key, now);
  if (status === "revoked") throw keyRefused(`This key is revoked and cannot be ${verb}.`);
  if (status === "expired") throw keyRefused(`This key has expired and cannot be ${verb}.`);
  if (status === "expiring") {
    throw keyRefused(`This key was already rotated and cannot be ${verb}: use its replacement.`);
  }
}

/**
 * Replaces a key with a new one of the same label, environment and expiry (no
 * later than the team's maximum lifetime allows from now).
 * The old key keeps working for the grace period (never past its own expiry).
 * Two rotations of one key at once: exactly one succeeds.
 */
export async function rotateKey(
  actor: Actor,
  publicId: string,
  grace: GracePeriod,
  now = new Date(),
): Promise<RotatedKey> {
  const teamId = await teamOfKey(publicId);
  const issued = await db.$transaction(async (tx) => {
    await lockTeamKeys(tx, teamId, now);
    const { key: old, role } = await findKeyAndRole(tx, actor, teamId, publicId);
    refuseUnlessActive(old, now, "rotated");
    await refuseRotationByPolicy(tx, teamId, old, role);
    if (old.decoy)
      throw keyRefused("A decoy key is never used, so there is nothing to rotate: revoke it, or create another.");
    const rotated = await issueRotation(
      tx,
      actor,
      old,
      grace,
      now,
      "This key was already rotated and cannot be rotated: use its replacement.",
    );
    await recordRotation(tx, actor, old, rotated, grace);
    // To the key's maker, who may not be the one who changed it (an admin, another developer).
    await queueKeyChanged(tx, old.userId, old, "rotated", now);
    return rotated;
  });
  log.info("key.rotated", { user_id: actor.userId, key_id: publicId, replacement_key_id: issued.key.id, grace });
  return issued;
}

/** Switches a key off for good; the very next API request with it fails. */
export async function revokeKey(
  actor: Actor,
  publicId: string,
  reason: string | null,
  now = new Date(),
): Promise<KeyView> {
  const teamId = await teamOfKey(publicId);
  const view = await db.$transaction(async (tx) => {
    await lockTeamKeys(tx, teamId, now);
    const key = await findKeyToChange(tx, actor, teamId, publicId);
    const { count } = await tx.apiKey.updateMany({
      where: { id: key.id, revokedAt: null },
      data: { revokedAt: now, revokedReason: reason },
    });
    if (count !== 1) throw keyRefused("This key is already revoked.");
    await recordTeamAudit(tx, teamId, actor, "key.revoked", publicId, reason ? { reason } : undefined);
    await queueKeyChanged(tx, key.userId, key, "revoked", now);
    return toKeyView(await tx.apiKey.findUniqueOrThrow({ where: { id: key.id }, select: keyViewSelect }), now);
  });
  log.info("key.revoked", { user_id: actor.userId, key_id: publicId });
  return view;
}

export interface LeakOutcome {
  revoked: KeyView;
  /** The new key, when one was made; null when the leaked key already had a replacement. */
  replacement: IssuedKey | null;
  existingReplacementId: string | null;
  /** No replacement was made because the reporter's role may not create a key of that environment. */
  replacementWithheld: boolean;
}

/** Who reported a key leaked: its owner in the dashboard, or, with no one signed in, a report. */
export type LeakSource = "dashboard" | "secret-scanning" | "public-report";

export interface LeakReport {
  source: LeakSource;
  /** Where it was found (a report's public URL), if said. */
  url: string | null;
  /** Issue a replacement (the owner in the dashboard); a report leaves that to the owner. */
  replace: boolean;
}

/** Why "this key leaked" is refused for a decoy: it never works, so a leak costs nothing and the alert is the point. */
export const DECOY_LEAK_REFUSED =
  "A decoy key never works, so its leaking costs nothing: it stays armed to tell you who uses it. Revoke it if you no longer want it.";

export type RevokeLeakedOutcome = ({ status: "revoked" } & LeakOutcome) | { status: "already_revoked" | "expired" };

/**
 * The one way a leaked key is revoked, whoever reports it: at once, with no
 * grace, in one transaction with its activity row (naming the source and the
 * URL) and the owner's notice. With `replace`, the replacement is issued too
 * (a key already in a rotation's grace period keeps the replacement it has).
 * A key already revoked or expired is left as it is; a decoy is refused.
 */
export async function revokeLeaked(
  actor: Actor,
  publicId: string,
  report: LeakReport,
  now = new Date(),
): Promise<RevokeLeakedOutcome> {
  const teamId = await teamOfKey(publicId);
  const outcome = await db.$transaction(async (tx): Promise<RevokeLeakedOutcome> => {
    await lockTeamKeys(tx, teamId, now);
    const key = await tx.apiKey.findFirst({ where: { publicId, teamId } });
    if (!key) throw keyNotFound();
    // Any member may report a key leaked (a viewer too: stopping a leak is never held up by a role); the
    // replacement, whose secret the reporter is shown, only for a member who may change this key (its maker, or
    // a role that manages its environment): a developer reporting another member's production key revokes it
    // without receiving a working copy of it (the attack review of teams).
    let replace = report.replace;
    if ((actor.kind ?? "person") === "person") {
      const member = await memberById(actor.userId, teamId, tx);
      if (!member) throw keyNotFound();
      requirePermission(member, "keys.report_leaked");
      // Nor, under "admins only", a developer reporting their own production key: no new production secret for them;
      // nor anyone the team's two-factor policy holds back (they may stop a leak, not receive a secret).
      replace &&= !member.twoFactorMissing;
      replace &&= mayReplaceKey(
        member,
        { environment: key.environment as KeyEnvironment, userId: key.userId, serviceAccountId: key.serviceAccountId },
        (await readTeamPolicy(teamId, tx)).productionKeys,
      );
    }
    // As with rotation: a decoy found in the open is doing its job, and reports of one raise its alert instead.
    if (key.decoy) throw keyRefused(DECOY_LEAK_REFUSED);
    const status = keyStatus(key, now);
    if (status === "revoked") return { status: "already_revoked" };
    if (status === "expired") return { status: "expired" };

    let replacement: IssuedKey | null = null;
    let successorId = key.successorId;
    // The expiry a new replacement takes: the key's own, unless a rotation cut it to the grace's end, in which case
    // its successor holds the one it had (the second attack review: a leak replacement died with the grace).
    let expiresAt = key.expiresAt;
    // An existing replacement stands only while it still works.
    if (successorId) {
      const successor = await tx.apiKey.findUnique({ where: { id: successorId } });
      if (successor) expiresAt = successor.expiresAt;
      if (!successor || keyStatus(successor, now) === "revoked" || keyStatus(successor, now) === "expired")
        successorId = null;
    }
    if (!successorId && replace) {
      const environment = key.environment as KeyEnvironment;
      const { row, secret } = await insertKey(
        tx,
        replacementOwners(actor, key),
        {
          label: key.label,
          environment,
          // No later than the team's maximum lifetime from now allows.
          expiresAt: rotatedExpiry(await readTeamPolicy(teamId, tx), environment, expiresAt, now),
          restrictions: fromStoredRestrictions(key),
          rateLimitByOperator: key.rateLimitByOperator,
        },
        now,
      );
      replacement = { key: toKeyView(row, now), secret };
      successorId = row.id;
      await recordReplacementCreated(tx, teamId, actor, row.publicId, key, "leak");
    }
    const reported = report.source !== "dashboard";
    const { count } = await tx.apiKey.updateMany({
      where: { id: key.id, revokedAt: null },
      data: {
        revokedAt: now,
        revokedReason: "leaked",
        successorId,
        ...(reported ? { leakSource: report.source, leakUrl: report.url } : {}),
      },
    });
    if (count !== 1) return { status: "already_revoked" };
    const revoked = toKeyView(await tx.apiKey.findUniqueOrThrow({ where: { id: key.id }, select: keyViewSelect }), now);
    const replacementId = revoked.successor?.id ?? null;
    await recordTeamAudit(tx, teamId, actor, "key.leaked", publicId, {
      replacement: replacementId,
      ...(reported ? { source: report.source, url: report.url } : {}),
    });
    if (reported) {
      const successor = revoked.successor ? { keyId: revoked.successor.id, label: revoked.successor.label } : null;
      await queueKeyReportedLeaked(tx, actor.userId, key, report, now, successor);
    } else await queueKeyChanged(tx, key.userId, key, "leaked", now);
    const team = await teamById(teamId, tx);
    if (team) await queueTeamKeyNotice(tx, team, key, "leaked", actor.userId, now);
    return {
      status: "revoked",
      revoked,
      replacement,
      existingReplacementId: replacement ? null : replacementId,
      replacementWithheld: report.replace && !replace && !replacementId,
    };
  });
  if (outcome.status === "revoked") {
    log.warn("key.leaked", {
      user_id: actor.userId,
      key_id: publicId,
      source: report.source,
      replacement_key_id: outcome.revoked.successor?.id,
    });
  }
  return outcome;
}

/** The owner has seen that a report revoked this key: the dashboard stops showing its notice. */
export async function dismissLeakNotice(actor: Actor, publicId: string, now = new Date()): Promise<KeyView> {
  const key = await db.apiKey.findFirst({ where: { publicId, leakSource: { not: null } } });
  const member = key ? await memberById(actor.userId, key.teamId) : null;
  if (!key || !member) throw keyNotFound();
  requirePermission(member, "keys.report_leaked");
  const row = await db.apiKey.update({ where: { id: key.id }, data: { leakSeenAt: now }, select: keyViewSelect });
  return toKeyView(row, now);
}

/** The dashboard's "this key leaked": revoke at once and issue the replacement. */
export async function reportLeak(actor: Actor, publicId: string, now = new Date()): Promise<LeakOutcome> {
  const outcome = await revokeLeaked(actor, publicId, { source: "dashboard", url: null, replace: true }, now);
  if (outcome.status === "expired")
    throw keyRefused("This key has expired: it no longer works, so it cannot be used by anyone.");
  if (outcome.status !== "revoked") throw keyRefused("This key is already revoked: it no longer works.");
  return outcome;
}

/** A key a departing member hands to a service account of the team, rotated with a grace period or kept as it is. */
export interface Handover {
  publicId: string;
  serviceAccountId: string;
  /** Rotate it in the same step, the old secret working for this long; null keeps its secret (the leaver knows it). */
  rotate: GracePeriod | null;
}

export interface HandedKey {
  key: string;
  serviceAccount: { id: string; name: string };
  /** The rotation's new key, whose secret is shown once to whoever removed the member; null when not rotated. */
  replacement: RotatedKey | null;
}

/**
 * Hands one usable key of a departing member to a service account, inside the
 * departure's transaction (lib/teams/members.ts removeMember holds the team's
 * lock and has checked the key is theirs). The key keeps its id, secret,
 * usage and history; from now on no departure revokes it. With `rotate`, a
 * replacement of the service account is issued and the old secret, which the
 * leaver knows, stops at the end of the grace period.
 */
export async function handOverKey(
  tx: Tx,
  actor: Actor,
  key: StoredKey,
  leaver: { user_id: string; email: string | null },
  serviceAccount: { id: string; name: string },
  rotate: GracePeriod | null,
  now: Date,
): Promise<HandedKey> {
  if (key.decoy) throw keyRefused("A decoy key is never used: revoke it instead of handing it over.");
  if (rotate !== null && key.successorId)
    throw keyRefused(
      `Key ${key.publicId} was already rotated: hand it over without rotating, or let it be revoked.`,
      `handover.${key.publicId}`,
    );
  await tx.apiKey.update({ where: { id: key.id }, data: { serviceAccountId: serviceAccount.id } });
  const owned = { ...key, serviceAccountId: serviceAccount.id };
  const replacement = rotate === null ? null : await issueRotation(tx, actor, owned, rotate, now);
  await recordTeamAudit(tx, key.teamId, actor, "key.transferred", key.publicId, {
    from_user_id: leaver.user_id,
    from_email: leaver.email,
    service_account: serviceAccount,
    rotated: replacement !== null,
    ...(replacement ? { replacement: replacement.key.id } : {}),
  });
  if (replacement && rotate !== null) await recordRotation(tx, actor, owned, replacement, rotate);
  return { key: key.publicId, serviceAccount, replacement };
}

/** A key row as the departure reads it. */
type StoredKey = Awaited<ReturnType<Tx["apiKey"]["findFirstOrThrow"]>>;

/**
 * Rotates, inside a departure's transaction, a service account's key that the
 * departing member made or rotated (so knows): the replacement stays the
 * service account's, its secret is shown once to whoever removes the member,
 * and the old secret stops at the end of the grace period.
 */
export async function rotateForDeparture(
  tx: Tx,
  actor: Actor,
  key: StoredKey,
  grace: GracePeriod,
  now: Date,
): Promise<RotatedKey> {
  if (key.decoy) throw keyRefused("A decoy key is never used: revoke it instead.", `handover.${key.publicId}`);
  if (key.successorId)
    throw keyRefused(
      `Key ${key.publicId} was already rotated: keep it as it is, or revoke it.`,
      `handover.${key.publicId}`,
    );
  const rotated = await issueRotation(tx, actor, key, grace, now);
  await recordRotation(tx, actor, key, rotated, grace);
  return rotated;
}

/**
 * The replacement of a key (same label, environment, expiry, restrictions and owners), the old one in its grace.
 * Conditional on "no successor yet": a concurrent rotation that got there first makes the update match nothing, and
 * the transaction rolls back with `conflict`.
 */
async function issueRotation(
  tx: Tx,
  actor: Actor,
  key: StoredKey,
  grace: GracePeriod,
  now: Date,
  conflict = `Key ${key.publicId} was rotated meanwhile: try again.`,
): Promise<RotatedKey> {
  const environment = key.environment as KeyEnvironment;
  const { row, secret } = await insertKey(
    tx,
    replacementOwners(actor, key),
    {
      label: key.label,
      environment,
      // The old key's expiry, or the team's maximum lifetime from now, whichever is sooner.
      expiresAt: rotatedExpiry(await readTeamPolicy(key.teamId, tx), environment, key.expiresAt, now),
      restrictions: fromStoredRestrictions(key),
      rateLimitByOperator: key.rateLimitByOperator,
    },
    now,
  );
  const graceEnd = new Date(now.getTime() + GRACE_PERIODS[grace]);
  const oldKeyStopsAt = key.expiresAt && key.expiresAt < graceEnd ? key.expiresAt : graceEnd;
  const { count } = await tx.apiKey.updateMany({
    where: { id: key.id, successorId: null, revokedAt: null },
    data: { successorId: row.id, expiresAt: oldKeyStopsAt },
  });
  if (count !== 1) throw keyRefused(conflict);
  return { key: toKeyView(row, now), secret, oldKeyStopsAt };
}

async function recordRotation(tx: Tx, actor: Actor, key: StoredKey, rotated: RotatedKey, grace: GracePeriod) {
  await recordTeamAudit(tx, key.teamId, actor, "key.rotated", key.publicId, {
    replacement: rotated.key.id,
    old_key_stops_at: rotated.oldKeyStopsAt.toISOString(),
    grace,
  });
  await recordReplacementCreated(tx, key.teamId, actor, rotated.key.id, key, "rotation");
}
