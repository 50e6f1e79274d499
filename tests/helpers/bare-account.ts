import { db } from "@/lib/db";
import { createPersonalTeam } from "@/lib/teams/personal-team";

/**
 * An account without a password (a GitHub-style account), made as the app
 * makes every account: with its personal team, in one transaction. For tests
 * that need an owner for keys and nothing of sign-up.
 */
export async function bareAccount(email: string): Promise<{ id: string; email: string }> {
  return db.$transaction(async (tx) => {
    const user = await tx.user.create({ data: { email }, select: { id: true, email: true } });
    await createPersonalTeam(tx, user.id);
    return user;
  });
}
