import Link from "next/link";
import { displayIp } from "@/lib/format-ip";
import { absoluteTime } from "@/lib/format-time";
import type { KeyView } from "@/lib/keys/views";
import type { AfterEndUse } from "@/lib/usage/signals";

/** Why the key stopped working, as the notice says it. */
function endedBy(key: Pick<KeyView, "status" | "successor" | "revokedAt">): string {
  if (key.status === "revoked") return "after it was revoked";
  return key.successor ? "after its rotation's grace period ended" : "after it expired";
}

export function afterEndText(key: Pick<KeyView, "status" | "successor" | "revokedAt">, use: AfterEndUse): string {
  const times = use.count === 1 ? "once" : `${use.count} times`;
  // Without an address the request log kept none of the last hour's uses (a flood filled it): the hour is all we know.
  const last =
    use.lastIp === null
      ? `last in the hour from ${absoluteTime(use.lastAt)}`
      : `last from ${displayIp(use.lastIp)} at ${absoluteTime(use.lastAt)}`;
  return `Used ${times} ${endedBy(key)}, ${last}`;
}

/**
 * On the key page: someone still holds this key and is trying it. That is
 * what a leak looks like, so it stands out, and it links to the request log.
 */
export function AfterEndNotice({
  keyView,
  use,
}: {
  keyView: Pick<KeyView, "status" | "successor" | "revokedAt">;
  use: AfterEndUse;
}) {
  return (
    <div
      role="status"
      data-testid="use-after-end"
      className="mt-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      <p className="font-semibold">{afterEndText(keyView, use)}.</p>
      <p className="mt-1">
        The requests were refused. Whoever sent them still has the key: check where it is stored.{" "}
        <Link href="#requests" className="underline">
          See the request log
        </Link>
        .
      </p>
    </div>
  );
}
