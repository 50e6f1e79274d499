import { notFound, redirect } from "next/navigation";
import { db } from "@/lib/db";
import { keyIdSchema } from "@/lib/keys/key.schema";
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
  // One query whether or not the key exists, so the answer (and its timing, and the order the page streams in)
  // tells someone outside the key's team nothing about it (the attack review of teams saw two awaits reveal it).
  const key = await db.apiKey.findFirst({
    where: { publicId: parsed.data, team: { memberships: { some: { userId: session.userId } } } },
    select: { team: { select: { slug: true } } },
  });
  if (!key) notFound();
  redirect(keyPath(key.team.slug, parsed.data));
}
