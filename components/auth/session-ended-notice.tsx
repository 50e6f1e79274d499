import { Timestamp } from "@/components/ui/timestamp";
import type { EndedSessionNotice } from "@/lib/auth/session-store";

const WHY: Record<EndedSessionNotice["reason"], string> = {
  all_others_ended: "Someone signed in to this account chose “End all other sessions”",
  password_changed: "The account’s password was changed from another browser, which ends every other session,",
  ended_elsewhere: "Someone signed in to this account ended this session",
  step_up_failed: "“Confirm it’s you” was answered wrongly five times in this browser, so its session was ended",
};

/**
 * Why this browser was signed out, when its session was ended from another
 * device (or after five wrong answers in the "confirm it's you" dialog). It
 * says when, and not from where: whoever still holds an ended cookie may be
 * the person it was ended to keep out.
 */
export function SessionEndedNotice({ notice }: { notice: Pick<EndedSessionNotice, "reason" | "endedAt"> }) {
  const byDialog = notice.reason === "step_up_failed";
  return (
    <div
      role="status"
      className="mb-6 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
    >
      <p className="font-semibold">{byDialog ? "You were signed out." : "You were signed out from another device."}</p>
      <p className="mt-1">
        {WHY[notice.reason]} <Timestamp date={notice.endedAt} />.{" "}
        {byDialog
          ? "The account’s owner was emailed. If that was you, sign in again."
          : "If that was not you, sign in and end every session you do not recognise on the account page."}
      </p>
    </div>
  );
}
