"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { failure, isForm, NOT_A_FORM, ok, type ActionResult, type ActionState } from "../action-result";
import { log } from "../log";
import { actorFor, requireActionSession } from "./guard";
import { endOtherSessions, endSession } from "./session-store";

// Ending sessions from the account page. Each action runs the session guard first.

const endSessionSchema = z.object({ sessionId: z.string().min(1).max(64) });

// Ends one of the signed-in user's sessions (another user's id matches nothing).
export async function endSessionAction(
  _previous: ActionState<string>,
  formData: FormData,
): Promise<ActionResult<string>> {
  const guard = await requireActionSession();
  if (!guard.ok) return failure(guard.error, formData);
  if (!isForm(formData)) return failure(NOT_A_FORM);
  const parsed = endSessionSchema.safeParse({ sessionId: formData.get("sessionId") });
  if (!parsed.success) return failure("That session id is not valid.", formData);
  const ended = await endSession(await actorFor(guard.session), parsed.data.sessionId);
  if (!ended) return failure("That session was not found. It may have ended already.", formData);
  log.info("auth.session_ended", { user_id: guard.session.userId, session_id: parsed.data.sessionId });
  revalidatePath("/account");
  return ok("Session ended.");
}

// Ends every session of the user but the one making the request.
export async function endOtherSessionsAction(): Promise<ActionResult<string>> {
  const guard = await requireActionSession();
  if (!guard.ok) return failure(guard.error);
  const count = await endOtherSessions(await actorFor(guard.session), guard.session.id);
  log.info("auth.other_sessions_ended", { user_id: guard.session.userId, count });
  revalidatePath("/account");
  return ok(count === 1 ? "1 other session ended." : `${count} other sessions ended.`);
}
