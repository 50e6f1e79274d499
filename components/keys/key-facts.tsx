import type { ReactNode } from "react";
import { Timestamp } from "@/components/ui/timestamp";
import { displayIp } from "@/lib/format-ip";
import type { KeyView } from "@/lib/keys/views";

/** The key page's facts, as a description list. */
export function KeyFacts({ keyView, now }: { keyView: KeyView; now: Date }) {
  const facts: [string, ReactNode][] = [
    [
      "Key id",
      <span key="id" className="font-mono break-all">
        {keyView.id}
      </span>,
    ],
    ["Environment", keyView.environment === "prod" ? "Production" : "Development"],
    [
      "Secret",
      <code key="fragment" className="break-all">
        {keyView.displayFragment}
      </code>,
    ],
    ["Created", <Timestamp key="created" date={keyView.createdAt} now={now} />],
    [
      "Last used",
      keyView.lastUsedAt ? (
        <span key="used">
          <Timestamp date={keyView.lastUsedAt} now={now} /> from {displayIp(keyView.lastUsedIp)}
        </span>
      ) : (
        "Never"
      ),
    ],
    [
      keyView.status === "expiring" ? "Stops working" : keyView.status === "expired" ? "Expired" : "Expires",
      keyView.expiresAt ? <Timestamp key="expires" date={keyView.expiresAt} now={now} /> : "Never",
    ],
  ];
  if (keyView.revokedAt) {
    facts.push([
      "Revoked",
      <span key="revoked">
        <Timestamp date={keyView.revokedAt} now={now} />
        {keyView.revokedReason && (
          <> · Reason: {keyView.revokedReason === "leaked" ? "reported leaked" : keyView.revokedReason}</>
        )}
      </span>,
    ]);
  }
  return (
    <dl className="mt-3 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[10rem_1fr]">
      {facts.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-medium text-zinc-700 dark:text-zinc-300">{term}</dt>
          <dd className="-mt-2 min-w-0 sm:mt-0">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
