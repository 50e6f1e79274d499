import { notFound, redirect } from "next/navigation";
import { db } from "@/lib/db";
import { keyIdSchema } from "@/lib/keys/key.schema";
import { memberById } from "@/lib/teams/membership";
import { requirePageSession } from "@/lib/web/guard";
import { keyPath } from "@/lib/web/team-paths";

// GET /dashboard/keys/key_...: a link from before teams (a mail, a chat, a
// bookmark) lands on the key's page in its team, for anyone who may see it.
// Anyone else gets the 404 of a key that does not exist.
export default async function OldKeyLink({ params }: { params: Promise<{ keyId: string }> }) {
  const { keyId } = await params;
  const session = await requirePageSession(`/dashboard/keys/${encodeURIComponent(keyId)}`);
  const parsed = keyIdSchema.safeParse(keyId);
  if (!parsed.success) notFound();
  const key = await db.apiKey.findUnique({ where: { publicId: parsed.data }, select: { teamId: true } });
  const member = key ? await memberById(session.userId, key.teamId) : null;
  if (!member) notFound();
  redirect(keyPath(member.team.slug, parsed.data));
}
