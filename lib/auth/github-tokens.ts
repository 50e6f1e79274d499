import "server-only";
import { db } from "../db";

// GitHub's tokens are never kept (keyportAdapter in lib/auth/options.ts). The
// migration account_tokens_cleared emptied those stored before; an instance of
// the previous release still running during a rolling deploy can link an
// account with its tokens after it, so npm run db:deploy empties them again
// on every run (`admin accounts:clear-tokens`).

/** Empties GitHub's tokens wherever an Account row still holds one; returns how many rows. */
export async function clearGithubTokens(): Promise<number> {
  const { count } = await db.account.updateMany({
    where: {
      OR: [
        { access_token: { not: null } },
        { refresh_token: { not: null } },
        { id_token: { not: null } },
        { session_state: { not: null } },
      ],
    },
    data: { access_token: null, refresh_token: null, id_token: null, session_state: null },
  });
  return count;
}
