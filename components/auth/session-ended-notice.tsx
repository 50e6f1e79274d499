import { Timestamp } from "@/components/ui/timestamp";
import { describeUserAgent } from "@/lib/auth/user-agent";
import type { EndedSessionNotice } from "@/lib/auth/session-store";
import { displayIp } from "@/lib/format-ip";

/** Why this browser was signed out, when the session was ended from another device. */
export function SessionEndedNotice({ notice }: { notice: EndedSessionNotice }) {
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
        from {describeUserAgent(notice.endedFromUa)} at {displayIp(notice.endedFromIp)},{" "}
        <Timestamp date={notice.endedAt} />. If that was not you, sign in and end every session you do not recognise on
        the account page.
      </p>
    </div>
  );
}
