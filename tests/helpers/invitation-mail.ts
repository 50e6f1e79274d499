import { expect } from "vitest";
import { db } from "@/lib/db";
import { open } from "@/lib/security/encryption";

/** The link's token of the newest invitation mail to an address, opened from its sealed row as the mail job does. */
export async function mailedInvitationToken(email: string): Promise<string> {
  const mail = await db.mailMessage.findFirstOrThrow({
    where: { kind: "team_invitation", recipient: email },
    orderBy: { createdAt: "desc" },
  });
  const link = open(mail.sealedLink!, "mail-link")!;
  const token = /\/invitations\/([A-Za-z0-9_-]{43})$/.exec(link)?.[1];
  expect(token, link).toBeDefined();
  return token!;
}
