import { Timestamp } from "@/components/ui/timestamp";
import type { EndedSessionNotice } from "@/lib/auth/session-store";

/**
 * Why this browser was signed out, when its session was ended from another
 * device. It says when, and not from where: whoever still holds an ended
 * cookie may be the person it was ended to keep out.
 */
export function SessionEndedNotice({ notice }: { notice: Pick<EndedSessionNotice, "reason" | "endedAt"> }) {
  return (
    <div
      role="status"
      className="mb-6 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
    >
      <p className="font-semibold">You were signed out from another device.</p>
      <p className="mt-1">
        {notice.reason === "all_others_ended"
          ? "Someone signed in to this account chose “End all other sessions”"
          : "Someone signed in to this account ended this session"}{" "}
        <Timestamp date={notice.endedAt} />. If that was not you, sign in and end every session you do not recognise on
        the account page.
      </p>
    </div>
  );
}
