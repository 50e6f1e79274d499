import "server-only";
import { z } from "zod";
import { emailSchema } from "../auth/credentials.schema";
import { db } from "../db";
import { keyDigest } from "../keys/digest";
import { KEY_ENVIRONMENTS } from "../keys/format";
import { keyIdSchema, labelSchema } from "../keys/key.schema";
import { createKey, revokeKey, updateRestrictions } from "../keys/lifecycle";
import { listKeys } from "../keys/queries";
import { describeRestrictions, fromStoredRestrictions, restrictionsSelect, UNRESTRICTED } from "../keys/restrictions";
import type { KeyView } from "../keys/views";
import { keyUsageSummary } from "../usage/key-summary";
import { USAGE_RANGES, usageRangeSchema } from "../usage/usage-range";
import {
  confirmedEverywhere,
  NotFoundError,
  OPERATOR,
  readLine,
  required,
  UsageError,
  userByEmail,
  type Flags,
  type Io,
} from "./command-support";
import { restrictionFlags } from "./restriction-flags";
import { teamBySlug } from "./team-commands";
import { memberById, personalTeamOf } from "../teams/membership";
import { serviceAccountByName } from "../teams/service-accounts";

// The key commands. Each returns what the CLI prints; lib/keys/lifecycle.ts
// checks ownership and writes the audit row, as it does for the dashboard.

/** The operator may give a key a limit above its environment's default; the dashboard may not. */
const OPERATOR_POLICY = { allowAboveDefaultLimit: true } as const;

/** A key as the CLI prints it: its restrictions in the audit log's readable form. */
const printable = (key: KeyView) => ({ ...key, restrictions: describeRestrictions(key.restrictions) });

/** key:create: prints only the new secret, so `$(npm run -s admin -- key:create ...)` captures it. */
export async function createKeyCommand(flags: Flags): Promise<string> {
  const environment = required(z.enum(KEY_ENVIRONMENTS), flags.env, "env");
  const label = required(labelSchema, flags.label, "label");
  const days =
    flags["expires-in-days"] === undefined
      ? undefined
      : required(z.coerce.number().int().min(1).max(1830), flags["expires-in-days"], "expires-in-days");
  const restrictions = { ...UNRESTRICTED, ...restrictionFlags(flags) };
  // With --team, a member's own key in that team (the operator makes it in their name); else their personal team.
  const team = flags.team === undefined ? undefined : await teamBySlug(flags);
  // With --service-account (and --team), a key of that service account: made in the name of --email if given,
  // else of the team's longest-standing owner, who then receives the key's notices as its maker would.
  const serviceAccount =
    flags["service-account"] === undefined
      ? undefined
      : await serviceAccountByName(
          (team ?? usage("--service-account needs --team SLUG.")).id,
          required(z.string().min(1), flags["service-account"], "service-account"),
        );
  const user =
    serviceAccount && flags.email === undefined
      ? await longestOwner(team!.id)
      : await userByEmail(required(emailSchema, flags.email, "email"));
  if (team && !(await memberById(user.id, team.id))) {
    throw new UsageError(`--email: ${user.email} is not a member of the team ${team.slug}.`);
  }
  const { secret } = await createKey(
    OPERATOR(user.id),
    {
      label,
      environment,
      expiresAt: days ? new Date(Date.now() + days * 86_400_000) : null,
      restrictions,
      teamId: team?.id,
      serviceAccountId: serviceAccount?.id,
    },
    new Date(),
    // --override-policy: what the team's policies would refuse is made anyway, and its activity row says so.
    flags["override-policy"] ? { ...OPERATOR_POLICY, overrideTeamPolicy: true } : OPERATOR_POLICY,
  );
  return secret;
}

const usage = (message: string): never => {
  throw new UsageError(message);
};

/** The team's owner who has been one longest: in whose name the operator makes a service account's key. */
async function longestOwner(teamId: string) {
  const owner = await db.membership.findFirst({
    where: { teamId, role: "owner" },
    orderBy: { createdAt: "asc" },
    select: { user: { select: { id: true, email: true } } },
  });
  if (!owner) throw new NotFoundError("That team has no owner: it was deleted.");
  return owner.user;
}

/** key:list --email E (the person's personal team) or --team SLUG (each key with its maker's email). */
export async function listKeysCommand(flags: Flags) {
  let teamId: string;
  if (flags.team !== undefined) {
    teamId = (await teamBySlug(flags)).id;
  } else {
    const user = await userByEmail(required(emailSchema, flags.email, "email"));
    teamId = (await personalTeamOf(user.id)).team.id;
  }
  const makers = new Map(
    (
      await db.apiKey.findMany({ where: { teamId }, select: { publicId: true, user: { select: { email: true } } } })
    ).map((key) => [key.publicId, key.user.email]),
  );
  const keys = [];
  for (let page = 1; ; page++) {
    const result = await listKeys(teamId, { page });
    keys.push(...result.items.map((key) => ({ ...printable(key), owner: makers.get(key.id) ?? null })));
    if (page >= result.pageCount) break;
  }
  return keys;
}

/** key:update: changes only the restrictions given; the others stay as the key has them. */
export async function updateKeyCommand(flags: Flags) {
  const id = required(keyIdSchema, flags.id, "id");
  const changes = restrictionFlags(flags);
  if (Object.keys(changes).length === 0) {
    throw new UsageError("key:update: give at least one of --scopes, --allow-ip, --rate-limit.");
  }
  const key = await db.apiKey.findUnique({ where: { publicId: id }, select: { userId: true, ...restrictionsSelect } });
  if (!key) throw new NotFoundError(`No key with the id ${id}.`);
  const restrictions = { ...fromStoredRestrictions(key), ...changes };
  const updated = await updateRestrictions(OPERATOR(key.userId), id, restrictions, OPERATOR_POLICY);
  return {
    id: updated.id,
    restrictions: describeRestrictions(updated.restrictions),
    ...(await confirmedEverywhere()),
  };
}

/** key:usage: the key's requests over one of the dashboard's ranges, from the aggregates and the request log. */
export async function keyUsageCommand(flags: Flags) {
  const id = required(keyIdSchema, flags.id, "id");
  const since = flags.since ?? "24h";
  const range = usageRangeSchema.safeParse(since);
  if (!range.success) {
    throw new UsageError(`--since: “${since}” is not a range key:usage knows; use one of ${USAGE_RANGES.join(", ")}.`);
  }
  const key = await db.apiKey.findUnique({ where: { publicId: id }, select: { id: true } });
  if (!key) throw new NotFoundError(`No key with the id ${id}.`);
  const summary = await keyUsageSummary(db, key.id, range.data);
  return {
    key_id: id,
    since: summary.since.toISOString(),
    total: summary.total,
    by_status_class: summary.byStatusClass,
    by_route: summary.byRoute,
    by_ip: summary.byIp,
    after_revocation: summary.afterRevocation,
  };
}

export async function revokeKeyCommand(flags: Flags, io: Io) {
  if (flags.stdin) {
    const secret = (await readLine(io.stdin)).trim();
    const key = await db.apiKey.findUnique({
      where: { digest: keyDigest(secret) },
      select: { publicId: true, userId: true, revokedAt: true, user: { select: { email: true } } },
    });
    if (!key) throw new NotFoundError("No key matches that secret.");
    if (!key.revokedAt) await revokeKey(OPERATOR(key.userId), key.publicId, "revoked by an operator (break-glass)");
    return {
      id: key.publicId,
      owner: { id: key.userId, email: key.user.email },
      alreadyRevoked: Boolean(key.revokedAt),
      // Also when it was revoked already: the revoke that did it may still be on its way to an instance.
      ...(await confirmedEverywhere()),
    };
  }
  const id = required(keyIdSchema, flags.id, "id");
  const key = await db.apiKey.findUnique({ where: { publicId: id }, select: { userId: true } });
  if (!key) throw new NotFoundError(`No key with the id ${id}.`);
  const revoked = await revokeKey(OPERATOR(key.userId), id, "revoked by an operator");
  return { id: revoked.id, status: revoked.status, ...(await confirmedEverywhere()) };
}
