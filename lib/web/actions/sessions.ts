"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "../define-action";
import { DomainError } from "../../domain-error";
import { log } from "../../log";
import { actorFor } from "../guard";
import { endOtherSessions, endSession } from "../../auth/session-store";

// Ending sessions from the account page, through the one action wrapper
// (lib/web/define-action.ts: the session guard first).

const NOT_VALID = "That session id is not valid.";

// Ends one of the signed-in user's sessions (another user's id matches nothing).
export const endSessionAction = defineAction({
  access: "session",
  input: z.object({ sessionId: z.string({ error: NOT_VALID }).min(1, NOT_VALID).max(64, NOT_VALID) }),
  async run({ input, session }) {
    const ended = await endSession(await actorFor(session), input.sessionId);
    if (!ended) throw new DomainError("not_found", "That session was not found. It may have ended already.");
    log.info("auth.session_ended", { user_id: session.userId, session_id: input.sessionId });
    revalidatePath("/account");
    return "Session ended.";
  },
});

// Ends every session of the user but the one making the request.
export const endOtherSessionsAction = defineAction({
  access: "session",
  input: z.object({}),
  async run({ session }) {
    const count = await endOtherSessions(await actorFor(session), session.id);
    log.info("auth.other_sessions_ended", { user_id: session.userId, count });
    revalidatePath("/account");
    return count === 1 ? "1 other session ended." : `${count} other sessions ended.`;
  },
});
