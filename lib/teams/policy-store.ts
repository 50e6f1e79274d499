import "server-only";
import { recordTeamAudit, type Actor } from "../audit";
import { db, type Db } from "../db";
import { statusWhere } from "../keys/status";
import { parseStoredAllowlist, serializeAllowlist } from "../keys/ip-allowlist";
import { describeRestrictions } from "../keys/restrictions";
import { parseStoredScopes, serializeScopes } from "../keys/scopes";
import { keyViewSelect, toKeyView, type KeyView } from "../keys/views";
import { log } from "../log";
import { DomainError } from "../domain-error";
import { queueTwoFactorRequired } from "../mail/team-notices";
import { requirePermission, teamNotFound } from "./membership";
import { authorise, lockTeam } from "./team-lock";
import { isProductionKeyRule, outlivesPolicy, type TeamPolicy } from "./policies";

// A team's policies in the database (the Team row's columns), read by every
// key change inside its transaction and changed by admins and the operator,
// each change audited with what it was before.

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
type Client = Pick<Db, "team">;

const policySelect = {
  productionKeys: true,
  maxKeyDaysProd: true,
  maxKeyDaysDev: true,
  requireTwoFactor: true,
  prodDefaultScopes: true,
  prodDefaultAllowedIps: true,
} as const;

function fromRow(row: {
  productionKeys: string;
  maxKeyDaysProd: number | null;
  maxKeyDaysDev: number | null;
  requireTwoFactor: boolean;
  prodDefaultScopes: string;
  prodDefaultAllowedIps: string | null;
}) {
  // The column is written only from the policies table; anything else is a fault, never a permission.
  if (!isProductionKeyRule(row.productionKeys)) throw new Error(`unknown production key rule: ${row.productionKeys}`);
  return {
    productionKeys: row.productionKeys,
    maxLifetimeDays: { prod: row.maxKeyDaysProd, dev: row.maxKeyDaysDev },
    requireTwoFactor: row.requireTwoFactor,
    productionDefaults: {
      scopes: parseStoredScopes(row.prodDefaultScopes),
      allowedIps: parseStoredAllowlist(row.prodDefaultAllowedIps),
    },
  } satisfies TeamPolicy;
}

/** The team's policies; read inside a key change's transaction, after the team's lock, to act on them. */
export async function readTeamPolicy(teamId: string, client: Client = db): Promise<TeamPolicy> {
  const row = await client.team.findUnique({ where: { id: teamId }, select: policySelect });
  if (!row) throw teamNotFound();
  return fromRow(row);
}

/** What a policy change names: each policy it sets (the ones it leaves out stay as they are). */
export interface PolicyChange {
  productionKeys?: TeamPolicy["productionKeys"];
  maxLifetimeDays?: Partial<TeamPolicy["maxLifetimeDays"]>;
  requireTwoFactor?: boolean;
  productionDefaults?: TeamPolicy["productionDefaults"];
}

const AUDIT_NAMES = {
  productionKeys: "production_keys",
  prod: "max_lifetime_days_prod",
  dev: "max_lifetime_days_dev",
  requireTwoFactor: "require_two_factor",
  productionDefaults: "production_key_defaults",
} as const;

/**
 * Sets the team's policies (roles with team.policies; the operator). A change that changes nothing writes nothing.
 * The audit row names each policy that moved, from and to. Keys made before keep their expiry.
 */
export async function setTeamPolicy(actor: Actor, teamId: string, change: PolicyChange): Promise<TeamPolicy> {
  const { before, after } = await db.$transaction(async (tx: Tx) => {
    await lockTeam(tx, teamId);
    const member = await authorise(tx, actor, teamId, (member) => requirePermission(member, "team.policies"));
    const before = await readTeamPolicy(teamId, tx);
    const after: TeamPolicy = {
      productionKeys: change.productionKeys ?? before.productionKeys,
      maxLifetimeDays: { ...before.maxLifetimeDays, ...change.maxLifetimeDays },
      requireTwoFactor: change.requireTwoFactor ?? before.requireTwoFactor,
      productionDefaults: change.productionDefaults ?? before.productionDefaults,
    };
    const turningOn = after.requireTwoFactor && !before.requireTwoFactor;
    // A personal team has its owner alone: the policy would only lock them out of their own keys.
    if (
      turningOn &&
      (await tx.team.findUnique({ where: { id: teamId }, select: { personalOfId: true } }))?.personalOfId
    )
      throw new DomainError(
        "invalid_request",
        "A personal team has its owner alone: two-factor is theirs to turn on in their account.",
        {
          field: "requireTwoFactor",
        },
      );
    // Whoever requires it has it: else they would be held back by their own policy, unable to turn it off.
    if (turningOn && member && !(await hasTwoFactor(tx, member.userId)))
      throw new DomainError(
        "invalid_request",
        "Turn on two-factor sign-in for your own account first, then require it of the team.",
        {
          field: "requireTwoFactor",
        },
      );
    const moved: Record<string, { from: string | number | boolean | null; to: string | number | boolean | null }> = {};
    if (after.productionKeys !== before.productionKeys)
      moved[AUDIT_NAMES.productionKeys] = { from: before.productionKeys, to: after.productionKeys };
    for (const environment of ["prod", "dev"] as const) {
      const [from, to] = [before.maxLifetimeDays[environment], after.maxLifetimeDays[environment]];
      if (from !== to) moved[AUDIT_NAMES[environment]] = { from, to };
    }
    if (after.requireTwoFactor !== before.requireTwoFactor)
      moved[AUDIT_NAMES.requireTwoFactor] = { from: before.requireTwoFactor, to: after.requireTwoFactor };
    const defaultsOf = (policy: TeamPolicy) => ({
      scopes: serializeScopes(policy.productionDefaults.scopes),
      allowedIps: serializeAllowlist(policy.productionDefaults.allowedIps),
    });
    const [defaultsFrom, defaultsTo] = [defaultsOf(before), defaultsOf(after)];
    if (defaultsFrom.scopes !== defaultsTo.scopes || defaultsFrom.allowedIps !== defaultsTo.allowedIps) {
      const described = (policy: TeamPolicy) => {
        const { scopes, allowed_ips } = describeRestrictions({ ...policy.productionDefaults, rateLimit: null });
        return `scopes: ${Array.isArray(scopes) ? scopes.join(", ") : scopes}; addresses: ${Array.isArray(allowed_ips) ? allowed_ips.join(", ") : allowed_ips}`;
      };
      moved[AUDIT_NAMES.productionDefaults] = { from: described(before), to: described(after) };
    }
    if (Object.keys(moved).length === 0) return { before, after: before };
    await tx.team.update({
      where: { id: teamId },
      data: {
        productionKeys: after.productionKeys,
        maxKeyDaysProd: after.maxLifetimeDays.prod,
        maxKeyDaysDev: after.maxLifetimeDays.dev,
        requireTwoFactor: after.requireTwoFactor,
        prodDefaultScopes: defaultsTo.scopes,
        prodDefaultAllowedIps: defaultsTo.allowedIps,
      },
    });
    await recordTeamAudit(tx, teamId, actor, "team.policy_changed", null, moved);
    if (turningOn) await queueTwoFactorRequired(tx, teamId, new Date());
    return { before, after };
  });
  if (before !== after) log.info("team.policy_changed", { team_id: teamId, user_id: actor.userId });
  return after;
}

async function hasTwoFactor(tx: Tx, userId: string): Promise<boolean> {
  const user = await tx.user.findUnique({ where: { id: userId }, select: { totpEnabledAt: true } });
  return Boolean(user?.totpEnabledAt);
}

/** The team's keys still in use that live longer than a key made now could: listed for its admins, never shortened. */
export async function keysOutlivingPolicy(teamId: string, policy: TeamPolicy, now = new Date()): Promise<KeyView[]> {
  if (policy.maxLifetimeDays.prod === null && policy.maxLifetimeDays.dev === null) return [];
  const rows = await db.apiKey.findMany({
    where: { teamId, decoy: false, ...statusWhere("active", now) },
    select: keyViewSelect,
    orderBy: { createdAt: "asc" },
  });
  return rows
    .filter((row) =>
      outlivesPolicy(policy, { environment: row.environment as "dev" | "prod", expiresAt: row.expiresAt }, now),
    )
    .map((row) => toKeyView(row, now));
}
