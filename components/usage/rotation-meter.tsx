import Link from "next/link";
import { keyPath } from "@/lib/web/team-paths";
import type { KeyTarget } from "@/components/keys/key-dialogs";
import { displayIp } from "@/lib/format-ip";
import type { KeyLink } from "@/lib/keys/views";
import type { RotationProgress } from "@/lib/usage/signals";
import { RetireOldKeyButton } from "./retire-old-key";

const percent = (share: number) => `${Math.round(share * 100)}%`;

/** For the list: one line, or null while there is no traffic to measure. */
export function rotationShareText(progress: RotationProgress): string | null {
  return progress.oldShare === null
    ? null
    : `${percent(progress.oldShare)} of the last hour's traffic still on this key`;
}

/**
 * A key in its rotation's grace period: how much of the last hour's traffic
 * of the old and the new key still uses the old one, who sends it, and the
 * way to retire it once nothing does.
 */
export function RotationMeter({
  slug,
  target,
  successor,
  progress,
}: {
  slug: string;
  target: KeyTarget;
  successor: KeyLink;
  progress: RotationProgress;
}) {
  const total = progress.oldRequests + progress.newRequests;
  return (
    <div data-testid="rotation-meter" className="mt-3 flex flex-col gap-3 text-sm">
      {progress.oldShare === null ? (
        <p>No requests with this key or its replacement in the last hour.</p>
      ) : (
        <>
          <p>
            <span className="font-semibold">{percent(progress.oldShare)}</span> of the last hour&apos;s requests still
            use this key ({progress.oldRequests} of {total}); {progress.newRequests} used its replacement{" "}
            <Link href={keyPath(slug, successor.id)}>“{successor.label}”</Link>.
          </p>
          <meter
            min={0}
            max={1}
            value={progress.oldShare}
            aria-label="Share of the last hour's requests still on the old key"
            className="h-3 w-full max-w-md"
          />
        </>
      )}
      {progress.senders.length > 0 && (
        <div>
          <p className="font-medium">Still sending this key</p>
          <ul className="mt-1 flex flex-col gap-1">
            {progress.senders.map((sender) => (
              <li key={`${sender.ip} ${sender.userAgent}`} className="break-words">
                <span className="font-mono">{displayIp(sender.ip)}</span>
                {sender.userAgent ? <> · {sender.userAgent}</> : null} · {sender.count}{" "}
                {sender.count === 1 ? "request" : "requests"}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div>
        <RetireOldKeyButton target={target} />
      </div>
    </div>
  );
}
