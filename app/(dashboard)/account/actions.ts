"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireActionSession } from "@/lib/auth/guard";
import { endOtherSessions, endSession } from "@/lib/auth/session-store";
import { log } from "@/lib/log";

export interface SessionActionState {
  ok: boolean;
  error?: string;
  message?: string;
}

const endSessionSchema = z.object({ sessionId: z.string().min(1).max(64) });

// Ends one of the signed-in user's sessions (another user's id matches nothing).
export async function endSessionAction(_previous: SessionActionState, formData: FormData): Promise<SessionActionState> {
  const guard = await requireActionSession();
  if (!guard.ok) return guard;
  const parsed = endSessionSchema.safeParse({ sessionId: formData.get("sessionId") });
  if (!parsed.success) return { ok: false, error: "That session id is not valid." };
  const ended = await endSession(guard.session.userId, parsed.data.sessionId);
  if (!ended) return { ok: false, error: "That session was not found. It may have ended already." };
  log.info("auth.session_ended", { user_id: guard.session.userId, session_id: parsed.data.sessionId });
  revalidatePath("/account");
  return { ok: true, message: "Session ended." };
}

// Ends every session of the user but the one making the request.
export async function endOtherSessionsAction(): Promise<SessionActionState> {
  const guard = await requireActionSession();
  if (!guard.ok) return guard;
  const count = await endOtherSessions(guard.session.userId, guard.session.id);
  log.info("auth.other_sessions_ended", { user_id: guard.session.userId, count });
  revalidatePath("/account");
  return { ok: true, message: count === 1 ? "1 other session ended." : `${count} other sessions ended.` };
}
