// A team's policies and what each one means: the one table that the checks
// (lib/keys/lifecycle.ts), the settings page, the sentences beside the key
// form's controls, the operator CLI and the docs' "Teams and roles" page all
// read. Pure data and functions: no database, no framework.
import { can, canManageKey, type Role } from "./roles";
import { allowlistWithin } from "../keys/ip-allowlist";
import { accessSummary, scopesWithin, type KeyRestrictions } from "../keys/restrictions";
import type { KeyScopes } from "../keys/scopes";

type Environment = "dev" | "prod";

/** Who may create a team's production keys. Admins and owners create them under every rule. */
export const PRODUCTION_KEY_RULES = ["admins", "approval", "developers"] as const;
export type ProductionKeyRule = (typeof PRODUCTION_KEY_RULES)[number];

export function isProductionKeyRule(value: unknown): value is ProductionKeyRule {
  return typeof value === "string" && (PRODUCTION_KEY_RULES as readonly string[]).includes(value);
}

export const PRODUCTION_KEY_RULE_TEXT: Record<ProductionKeyRule, { label: string; sentence: string }> = {
  admins: {
    label: "Admins only",
    sentence: "Only admins and owners create production keys in this team, and only they rotate one.",
  },
  approval: {
    label: "Developers with approval",
    sentence:
      "Admins and owners create production keys; a developer requests one, and reveals its secret once an admin has approved.",
  },
  developers: {
    label: "Developers",
    sentence: "Developers, admins and owners create production keys.",
  },
};

/** A maximum key lifetime, when a team sets one: whole days in this range. */
export const LIFETIME_DAYS_MIN = 7;
export const LIFETIME_DAYS_MAX = 365;

export interface TeamPolicy {
  productionKeys: ProductionKeyRule;
  /** The longest a new key of each environment may live, in days; null: no maximum (keys may never expire). */
  maxLifetimeDays: Record<Environment, number | null>;
  /** Whether a member must have two-factor sign-in on to see and do anything in the team but its key list. */
  requireTwoFactor: boolean;
  /** What a new production key starts with, and the most a developer may give one; admins and owners may widen. */
  productionDefaults: { scopes: KeyScopes; allowedIps: string[] | null };
}

/** A new team's policies: what the teams issue shipped before there were policies. */
export const DEFAULT_POLICY: TeamPolicy = {
  productionKeys: "developers",
  maxLifetimeDays: { dev: null, prod: null },
  requireTwoFactor: false,
  productionDefaults: { scopes: "all", allowedIps: null },
};

/** Each policy as the settings page and the docs present it. */
export const POLICY_DESCRIPTIONS = [
  {
    name: "Production keys",
    options: PRODUCTION_KEY_RULES.map((rule) => PRODUCTION_KEY_RULE_TEXT[rule].label).join(", "),
    default: PRODUCTION_KEY_RULE_TEXT[DEFAULT_POLICY.productionKeys].label,
    effect:
      "Who creates production keys. Under “Admins only” a developer can neither create nor rotate one, and reporting one leaked revokes it without making a replacement for them. Under “Developers with approval” a developer requests one (label, access, expiry and a reason); an admin approves or denies it with a fresh sign-in, and the developer alone reveals its secret, generated at that moment, within 7 days. A developer still rotates a production key they manage, since its access was approved already.",
  },
  {
    name: "Maximum lifetime of production keys",
    options: `none, or ${LIFETIME_DAYS_MIN} to ${LIFETIME_DAYS_MAX} days`,
    default: "none",
    effect:
      "A new production key must expire, at the latest at the end of the day (UTC) that many days ahead; the form suggests that day. A rotation's new key keeps the old key's expiry or gets the maximum, whichever is sooner. Keys made before the policy keep their expiry, never shortened: the settings page lists those that live longer than a key made now could, and their pages say so.",
  },
  {
    name: "Maximum lifetime of development keys",
    options: `none, or ${LIFETIME_DAYS_MIN} to ${LIFETIME_DAYS_MAX} days`,
    default: "none",
    effect: "The same, for development keys.",
  },
  {
    name: "Defaults for new production keys",
    options: "scopes (all, read only, or chosen), and an IP allowlist",
    default: "every scope, from any address",
    effect:
      "The access a new production key starts with in the create dialog. A developer may narrow it, on a new key, a request or an existing key, but not go past it (nor past a key's own access under “Developers with approval”); admins and owners may. Keys made before keep their access.",
  },
  {
    name: "Two-factor required",
    options: "on, off",
    default: "off",
    effect:
      "A member without two-factor sign-in still signs in, and sees in the team only its key list (label, fragment, status) and a request to turn it on; they may report a key leaked, which then makes no replacement. Their keys keep working. Admins see on the members page who has not turned it on, and turning the policy on mails them. Only someone with two-factor on turns it on. Service accounts never sign in, so it does not apply to them.",
  },
] as const;

/** What a member held back by "two-factor required" is told wherever they are stopped. */
export const TWO_FACTOR_REQUIRED_REFUSAL =
  "This team requires two-factor sign-in. Turn it on in your account, then come back: until then you see only the team's key list.";

/**
 * The rule alone, whatever else the role allows: under "developers" anyone who may make a production key makes it;
 * under the others only a role that manages any production key. (The operator CLI makes keys in a member's name
 * without their role's limits, but not past the team's rule.)
 */
export function ruleAllowsProductionKey(rule: ProductionKeyRule, role: Role): boolean {
  return rule === "developers" || can(role, "keys.manage_any_prod");
}

/** Whether this member asks for a production key instead of making one: a developer under "developers with approval". */
export function mustRequestProductionKey(rule: ProductionKeyRule, role: Role): boolean {
  return rule === "approval" && can(role, "keys.create_prod") && !can(role, "keys.manage_any_prod");
}

/**
 * Whether the rule lets this member be handed a new secret of a production key they may change (a rotation, a leak
 * report's replacement). Only "admins only" keeps it from developers: under "developers with approval" the key's
 * access was approved already, and a leaked key must not wait for an admin to be replaced.
 */
export function ruleAllowsReplacement(rule: ProductionKeyRule, role: Role): boolean {
  return rule !== "admins" || can(role, "keys.manage_any_prod");
}

/**
 * Whether a member is handed a new secret of this key, by rotating it or by reporting it leaked: their role must let
 * them change it (canManageKey), and for a production key the team's rule must let them make one.
 */
export function mayReplaceKey(
  member: { role: Role; userId: string },
  key: { environment: "dev" | "prod"; userId: string; serviceAccountId?: string | null },
  rule: ProductionKeyRule,
): boolean {
  return canManageKey(member, key) && (key.environment === "dev" || ruleAllowsReplacement(rule, member.role));
}

/** The refusal's sentence for a member whose production key the team's rule does not allow, by the rule. */
export function productionKeyRefusal(rule: ProductionKeyRule): string {
  return rule === "approval"
    ? "This team's policy: a developer's production key needs an admin's approval. Request it instead."
    : "This team's policy: only admins and owners create production keys. Ask an admin of the team.";
}

/** The refusal of a rotation (a new secret) the rule does not allow. */
export const PRODUCTION_ROTATION_REFUSAL =
  "This team's policy: only admins and owners create production keys, and only they rotate one. Ask an admin of the team.";

/** How long a key request waits for a decision, and how long an approved one waits to be revealed. */
export const KEY_REQUEST_DAYS = 7;
/** The longest reason a request may give. */
export const KEY_REQUEST_REASON_MAX = 500;

const DAY_MS = 86_400_000;

/** The latest expiry the policy allows for a key made at `now`: the end of the UTC day `days` ahead. */
export function latestExpiry(days: number, now: Date): Date {
  const day = new Date(now.getTime() + days * DAY_MS);
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 23, 59, 59, 999));
}

const environmentName = (environment: Environment) => (environment === "prod" ? "production" : "development");

/** Why an expiry breaks the team's maximum lifetime, or null when it does not. */
export function lifetimeRefusal(
  policy: TeamPolicy,
  environment: Environment,
  expiresAt: Date | null,
  now: Date,
): string | null {
  const days = policy.maxLifetimeDays[environment];
  if (days === null) return null;
  const latest = latestExpiry(days, now);
  if (expiresAt && expiresAt <= latest) return null;
  return `This team's policy: ${environmentName(environment)} keys expire within ${days} days. Choose a date on or before ${latest.toISOString().slice(0, 10)}.`;
}

/** A rotation's new key: the expiry it inherits, or the team's maximum from now, whichever is sooner. */
export function rotatedExpiry(
  policy: TeamPolicy,
  environment: Environment,
  inherited: Date | null,
  now: Date,
): Date | null {
  const days = policy.maxLifetimeDays[environment];
  if (days === null) return inherited;
  const latest = latestExpiry(days, now);
  return inherited && inherited < latest ? inherited : latest;
}

/** Whether a usable key lives longer than a key made now could: no expiry, or one past the maximum from now. */
export function outlivesPolicy(
  policy: TeamPolicy,
  key: { environment: Environment; expiresAt: Date | null },
  now: Date,
): boolean {
  return lifetimeRefusal(policy, key.environment, key.expiresAt, now) !== null;
}

/** Whether a role may give a production key more than the team's defaults: the roles that manage any production key. */
export const mayWidenPastDefaults = (role: Role) => can(role, "keys.manage_any_prod");

/** Why this access goes past the team's defaults for production keys, on the field it concerns; null when it does not. */
export function defaultsRefusal(
  defaults: TeamPolicy["productionDefaults"],
  restrictions: KeyRestrictions,
): { message: string; field: "scopes" | "allowedIps" } | null {
  const described = accessSummary({ ...defaults, rateLimit: null }) ?? "every scope, from any address";
  if (!scopesWithin(restrictions.scopes, defaults.scopes))
    return {
      message: `This team's default for production keys is ${described}: choose scopes within it, or ask an admin for a wider key.`,
      field: "scopes",
    };
  if (!allowlistWithin(restrictions.allowedIps, defaults.allowedIps))
    return {
      message: `This team's default for production keys is ${described}: allow addresses within it, or ask an admin for a wider key.`,
      field: "allowedIps",
    };
  return null;
}
