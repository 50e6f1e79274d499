import "server-only";
import { z } from "zod";
import { emailSchema } from "../auth/credentials.schema";
import { db } from "../db";
import { addMember, createTeam, listMembers, removeMember, setRole } from "../teams/members";
import { inviteMember } from "../teams/invitations";
import { createServiceAccount, listServiceAccounts, serviceAccountByName } from "../teams/service-accounts";
import { ROLES } from "../teams/roles";
import type { TeamPolicy } from "../teams/policies";
import { cliLifetimeDaysSchema, productionKeyRuleSchema } from "../teams/policy.schema";
import { readTeamPolicy, setTeamPolicy, type PolicyChange } from "../teams/policy-store";
import { teamSlugSchema } from "../teams/slug";
import { listKeyRequests } from "../keys/key-request-views";
import { describeRestrictions } from "../keys/restrictions";
import { parseAllowIpFlag, parseScopesFlag } from "./restriction-flags";

/** Enough for every waiting request: each member may have at most PENDING_REQUEST_CAP (lib/keys/key-requests.ts). */
const PENDING_LIST_MAX = 1_000;
import { confirmedEverywhere, NotFoundError, OPERATOR, required, userByEmail, type Flags } from "./command-support";

// The team commands. The operator is not a member and no role limits it; the
// rules that hold for everyone (a team keeps an owner, no one joins twice, a
// person owns at most five teams) are checked in lib/teams, as for the dashboard.

const roleSchema = z.enum(ROLES, { error: `Use one of ${ROLES.join(", ")}.` });
const onOffSchema = z.enum(["on", "off"], { error: "Use on or off." });

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

/** team:invite --team SLUG --email EMAIL --role ROLE: mails the invitation; prints it, never its link. */
export async function inviteCommand(flags: Flags) {
  const team = await teamBySlug(flags);
  const role = required(roleSchema, flags.role, "role");
  const email = required(z.string(), flags.email, "email");
  const invited = await inviteMember(OPERATOR(""), team.id, { email, role });
  return {
    team: team.slug,
    id: invited.id,
    email: invited.email,
    role: invited.role,
    expires_at: invited.expiresAt.toISOString(),
  };
}

/** team:set-role --team SLUG --email EMAIL --role ROLE. */
export async function setRoleCommand(flags: Flags) {
  const team = await teamBySlug(flags);
  const role = required(roleSchema, flags.role, "role");
  const user = await userByEmail(required(emailSchema, flags.email, "email"));
  await setRole(OPERATOR(user.id), team.id, user.id, role);
  return { team: team.slug, email: user.email, role };
}

/**
 * team:remove-member --team SLUG --email EMAIL [--transfer-to NAME]: their keys in the team are revoked, or with
 * --transfer-to every one of them but their decoys (revoked) goes to that service account of the team, not rotated
 * (the output says so).
 */
export async function removeMemberCommand(flags: Flags) {
  const team = await teamBySlug(flags);
  const user = await userByEmail(required(emailSchema, flags.email, "email"));
  const to =
    flags["transfer-to"] === undefined
      ? null
      : await serviceAccountByName(team.id, required(z.string().min(1), flags["transfer-to"], "transfer-to"));
  // Chosen under the team's lock; a decoy is never handed over (its alarm is the point), it is revoked with the rest.
  const { revoked, handedOver, kept } = await removeMember(OPERATOR(user.id), team.id, user.id, {
    ...(to ? { handOverAllTo: to.id } : {}),
  });
  const confirmed = await confirmedEverywhere();
  return {
    team: team.slug,
    email: user.email,
    revoked_keys: revoked,
    ...(to
      ? {
          transferred_keys: handedOver.map((h) => h.key),
          transferred_to: to.name,
          rotated: false,
          note: "The keys were not rotated and the person who left still knows their secrets: rotate them from the dashboard.",
        }
      : {}),
    // Service accounts' keys they made or rotated keep working, and they know those secrets.
    ...(kept.length > 0
      ? {
          service_account_keys_they_know: kept,
          service_account_note:
            "These service accounts' keys keep working, and the person who left knows their secrets: rotate them from the dashboard.",
        }
      : {}),
    ...confirmed,
  };
}

/** service-account:create --team SLUG --name NAME: prints it as JSON. */
export async function createServiceAccountCommand(flags: Flags) {
  const team = await teamBySlug(flags);
  const name = required(z.string(), flags.name, "name");
  const made = await createServiceAccount(OPERATOR(""), team.id, name);
  return { team: team.slug, id: made.id, name: made.name };
}

/** service-account:list --team SLUG: each with how many of its keys work now. */
export async function listServiceAccountsCommand(flags: Flags) {
  const team = await teamBySlug(flags);
  const accounts = await listServiceAccounts(team.id);
  return {
    team: team.slug,
    service_accounts: accounts.map((a) => ({
      id: a.id,
      name: a.name,
      created_at: a.createdAt.toISOString(),
      keys_in_use: a.keysInUse,
    })),
  };
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

/** The team's policies as the CLI prints them: the flags' own names and values. */
const printablePolicy = (slug: string, policy: TeamPolicy) => ({
  team: slug,
  production_keys: policy.productionKeys,
  max_lifetime_days_prod: policy.maxLifetimeDays.prod,
  max_lifetime_days_dev: policy.maxLifetimeDays.dev,
  require_two_factor: policy.requireTwoFactor ? "on" : "off",
  prod_default: (({ scopes, allowed_ips }) => ({ scopes, allowed_ips }))(
    describeRestrictions({ ...policy.productionDefaults, rateLimit: null }),
  ),
});

/**
 * team:policy --team SLUG [--production-keys admins|approval|developers] [--max-lifetime-days-prod N|none]
 * [--max-lifetime-days-dev N|none] [--require-two-factor on|off] [--prod-default-scopes S]
 * [--prod-default-allow-ip IPS|none]: sets the policies given (audited), then prints them all.
 */
export async function teamPolicyCommand(flags: Flags) {
  const team = await teamBySlug(flags);
  const change: PolicyChange = {};
  if (flags["production-keys"] !== undefined)
    change.productionKeys = required(productionKeyRuleSchema, flags["production-keys"], "production-keys");
  const lifetime: PolicyChange["maxLifetimeDays"] = {};
  if (flags["max-lifetime-days-prod"] !== undefined)
    lifetime.prod = required(cliLifetimeDaysSchema, flags["max-lifetime-days-prod"], "max-lifetime-days-prod");
  if (flags["max-lifetime-days-dev"] !== undefined)
    lifetime.dev = required(cliLifetimeDaysSchema, flags["max-lifetime-days-dev"], "max-lifetime-days-dev");
  if (Object.keys(lifetime).length > 0) change.maxLifetimeDays = lifetime;
  const defaults: Partial<TeamPolicy["productionDefaults"]> = {};
  if (flags["prod-default-scopes"] !== undefined) defaults.scopes = parseScopesFlag(flags["prod-default-scopes"]);
  if (flags["prod-default-allow-ip"] !== undefined)
    defaults.allowedIps = parseAllowIpFlag(flags["prod-default-allow-ip"]);
  if (Object.keys(defaults).length > 0) {
    const current = (await readTeamPolicy(team.id)).productionDefaults;
    change.productionDefaults = { ...current, ...defaults };
  }
  if (flags["require-two-factor"] !== undefined)
    change.requireTwoFactor = required(onOffSchema, flags["require-two-factor"], "require-two-factor") === "on";
  const policy =
    Object.keys(change).length === 0
      ? await readTeamPolicy(team.id)
      : // Audited as the operator's, as its service accounts and invitations are (no member's name).
        await setTeamPolicy(OPERATOR(""), team.id, change);
  return printablePolicy(team.slug, policy);
}

/** key:requests --team SLUG: the requests for production keys waiting for a decision, oldest first. */
export async function keyRequestsCommand(flags: Flags) {
  const team = await teamBySlug(flags);
  const now = new Date();
  const pending = (await listKeyRequests(team.id, { take: PENDING_LIST_MAX }, now)).filter(
    (request) => request.state === "pending",
  );
  return {
    team: team.slug,
    pending: pending.map((request) => ({
      id: request.id,
      label: request.label,
      requested_by: request.requester.email,
      requested_at: request.createdAt.toISOString(),
      decide_by: request.decideBy.toISOString(),
      reason: request.reason,
      expires_at: request.expiresAt?.toISOString() ?? null,
      ...describeRestrictions(request.restrictions),
    })),
  };
}
