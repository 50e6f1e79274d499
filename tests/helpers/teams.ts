import { db } from "@/lib/db";

/** The account's personal team (every account has one): where its keys, files and generations are. */
export async function personalTeam(userId: string): Promise<{ id: string; slug: string; personalOfId: string | null }> {
  return db.team.findUniqueOrThrow({
    where: { personalOfId: userId },
    select: { id: true, slug: true, personalOfId: true },
  });
}

/** The id of the account's personal team. */
export async function personalTeamId(userId: string): Promise<string> {
  return (await personalTeam(userId)).id;
}
