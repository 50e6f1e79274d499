import "server-only";
import type { Db } from "../db";
import { queueMail } from "./outbox";
import { adminsWithAddress } from "./team-notices";

// The mails of a request for a production key (lib/keys/key-requests.ts),
// queued in the transaction that made or decided it: each admin and owner of
// the team hears of a new request, and the requester hears of the decision.
// A mail names the request and links to it; it never holds a secret, since
// none exists until the requester reveals the key.

type Tx = Pick<Db, "$executeRaw" | "user" | "membership">;

const stamp = (when: Date) => when.toISOString().slice(0, 16).replace("T", " ");

interface RequestFacts {
  team: { id: string; name: string; slug: string };
  request: { publicId: string; label: string; userId: string };
}

export async function queueKeyRequested(
  tx: Tx,
  { team, request }: RequestFacts,
  reason: string,
  decideBy: Date,
  now: Date,
) {
  const [by, admins] = await Promise.all([
    tx.user.findUniqueOrThrow({ where: { id: request.userId }, select: { email: true } }),
    adminsWithAddress(tx, team.id),
  ]);
  for (const user of admins) {
    await queueMail(
      tx,
      {
        kind: "key_requested",
        subject: request.publicId,
        period: user.id,
        userId: user.id,
        to: user.email,
        data: {
          team: team.name,
          slug: team.slug,
          requestId: request.publicId,
          label: request.label,
          by: by.email,
          reason,
          decideBy: stamp(decideBy),
        },
      },
      now,
    );
  }
}

export async function queueKeyRequestDecided(
  tx: Tx,
  { team, request }: RequestFacts,
  decision: { approved: boolean; byUserId: string; comment: string | null; revealBy: Date | null },
  now: Date,
) {
  const [requester, by] = await Promise.all([
    tx.user.findUniqueOrThrow({ where: { id: request.userId }, select: { email: true } }),
    tx.user.findUniqueOrThrow({ where: { id: decision.byUserId }, select: { email: true } }),
  ]);
  if (!requester.email) return;
  await queueMail(
    tx,
    {
      kind: "key_request_decided",
      subject: request.publicId,
      period: "decided",
      userId: request.userId,
      to: requester.email,
      data: {
        team: team.name,
        slug: team.slug,
        requestId: request.publicId,
        label: request.label,
        decision: decision.approved ? "approved" : "denied",
        by: by.email,
        comment: decision.comment,
        revealBy: decision.revealBy ? stamp(decision.revealBy) : null,
      },
    },
    now,
  );
}
