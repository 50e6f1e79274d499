import "server-only";
import type { Db } from "../db";
import { queueMail } from "./outbox";

// Notices about teams, queued in the transaction of the change they tell
// about: to a person whose membership changed, and to a team's admins and
// owners when one of its production keys is created or any of its keys is
// reported leaked. A personal team sends none of these: its owner already
// gets the key notices of lib/mail/account-notices.ts.

type Tx = Pick<Db, "$executeRaw" | "user" | "membership">;

const stamp = (when: Date) => when.toISOString().slice(0, 16).replace("T", " ");

export type MembershipChange = "added" | "role_changed" | "removed" | "deleted";

/** A person was added to a team, had their role changed, or was removed (or left). */
export async function queueMembershipChanged(
  tx: Tx,
  team: { id: string; name: string; slug: string },
  userId: string,
  change: MembershipChange,
  role: string | null,
  now: Date,
  /** On a removal: how many of their keys were handed to a service account instead of revoked. */
  handedOver = 0,
) {
  const { email } = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
  if (!email) return;
  await queueMail(
    tx,
    {
      kind: "team_membership",
      subject: `${team.id}:${userId}`,
      period: `${change}:${now.getTime()}`,
      userId,
      to: email,
      data: { team: team.name, slug: team.slug, change, role, when: stamp(now), handedOver },
    },
    now,
  );
}

/** The team's admins and owners who have an address: who hears of its production keys, leaks and requests. */
export async function adminsWithAddress(tx: Pick<Db, "membership">, teamId: string) {
  const rows = await tx.membership.findMany({
    where: { teamId, role: { in: ["admin", "owner"] } },
    select: { user: { select: { id: true, email: true } } },
  });
  return rows.flatMap(({ user }) => (user.email ? [{ id: user.id, email: user.email }] : []));
}

/** A production key of the team was created, or one of its keys reported leaked: each admin and owner is told. */
export async function queueTeamKeyNotice(
  tx: Tx,
  team: { id: string; name: string; slug: string; personal: boolean },
  key: { publicId: string; label: string; environment: string },
  change: "created" | "leaked",
  byUserId: string,
  now: Date,
) {
  if (team.personal || (change === "created" && key.environment !== "prod")) return;
  const [by, admins] = await Promise.all([
    tx.user.findUniqueOrThrow({ where: { id: byUserId }, select: { email: true } }),
    adminsWithAddress(tx, team.id),
  ]);
  for (const user of admins) {
    await queueMail(
      tx,
      {
        kind: "team_key_changed",
        subject: key.publicId,
        period: `${change}:${user.id}`,
        userId: user.id,
        to: user.email,
        data: {
          team: team.name,
          slug: team.slug,
          keyId: key.publicId,
          label: key.label,
          environment: key.environment === "prod" ? "prod" : "dev",
          change,
          by: by.email,
          when: stamp(now),
        },
      },
      now,
    );
  }
}

/** The team now requires two-factor sign-in: each member without it is told what they can no longer see, and how. */
export async function queueTwoFactorRequired(
  tx: Pick<Db, "$executeRaw" | "membership" | "team">,
  teamId: string,
  now: Date,
) {
  const team = await tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { name: true, slug: true } });
  const members = await tx.membership.findMany({
    where: { teamId, user: { totpEnabledAt: null } },
    select: { userId: true, user: { select: { email: true } } },
  });
  for (const member of members) {
    if (!member.user.email) continue;
    await queueMail(
      tx,
      {
        kind: "team_two_factor_required",
        subject: `${teamId}:${member.userId}`,
        period: String(now.getTime()),
        userId: member.userId,
        to: member.user.email,
        data: { team: team.name, slug: team.slug, when: stamp(now) },
      },
      now,
    );
  }
}

export interface KeyRecipient {
  userId: string;
  email: string;
  /** Appended to a notice's period, so each recipient's copy is its own (the outbox sends one per kind, subject and period). */
  periodSuffix: string;
}

/** Members with an address; each copy is its own, the maker's under the bare period, as notices were before teams. */
function asRecipients(members: { userId: string; user: { email: string | null } }[], makerId: string): KeyRecipient[] {
  return members.flatMap((member) =>
    member.user.email
      ? [
          {
            userId: member.userId,
            email: member.user.email,
            periodSuffix: member.userId === makerId ? "" : `:${member.userId}`,
          },
        ]
      : [],
  );
}

/**
 * Who is reminded that a key expires: someone responsible for renewing it. A
 * person's key reminds its maker, who alone holds its secret (a departure
 * revokes their keys, so the maker is a member while the key works); a
 * service account's key, which no one person owns, reminds the team's admins
 * and owners, who manage it.
 */
export async function expiryRecipients(
  client: Pick<Db, "membership">,
  key: { userId: string; teamId: string; serviceAccountId: string | null },
): Promise<KeyRecipient[]> {
  const members = await client.membership.findMany({
    where: key.serviceAccountId
      ? { teamId: key.teamId, role: { in: ["admin", "owner"] } }
      : { teamId: key.teamId, userId: key.userId },
    select: { userId: true, user: { select: { email: true } } },
  });
  return asRecipients(members, key.userId);
}

/**
 * Who hears about a key (a decoy's use, a revoked key still tried):
 * in a personal team, its owner; in another team, the key's maker while they
 * are still a member, and the team's admins and owners, so a notice outlives
 * the maker's departure.
 */
export async function keyRecipients(
  client: Pick<Db, "membership" | "team" | "user">,
  key: { userId: string; teamId: string },
): Promise<KeyRecipient[]> {
  const team = await client.team.findUnique({ where: { id: key.teamId }, select: { personalOfId: true } });
  const members = await client.membership.findMany({
    where: {
      teamId: key.teamId,
      OR: [{ userId: key.userId }, ...(team?.personalOfId ? [] : [{ role: { in: ["admin", "owner"] } }])],
    },
    select: { userId: true, user: { select: { email: true } } },
  });
  return asRecipients(members, key.userId);
}
