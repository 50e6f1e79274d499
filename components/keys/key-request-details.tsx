import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Timestamp } from "@/components/ui/timestamp";
import type { KeyRequestState } from "@/lib/keys/key-request-state";
import type { KeyRequestView } from "@/lib/keys/key-request-views";
import { accessSummary } from "@/lib/keys/restrictions";
import { keyPath, keyRequestPath } from "@/lib/web/team-paths";

// A request for a production key as its page and the team's list show it:
// what was asked, by whom, why, and where it stands. Never a secret.

const STATE_BADGE: Record<KeyRequestState, { text: string; tone: "info" | "success" | "danger" | "neutral" }> = {
  pending: { text: "Waiting for approval", tone: "info" },
  approved: { text: "Approved: ready to reveal", tone: "success" },
  revealed: { text: "Key made", tone: "neutral" },
  denied: { text: "Denied", tone: "danger" },
  expired: { text: "Expired", tone: "neutral" },
};

export function KeyRequestBadge({ state }: { state: KeyRequestState }) {
  return <Badge tone={STATE_BADGE[state].tone}>{STATE_BADGE[state].text}</Badge>;
}

export function KeyRequestFacts({ slug, request, now }: { slug: string; request: KeyRequestView; now: Date }) {
  return (
    <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-[max-content_1fr] sm:gap-x-6">
      <dt className="font-medium">Asked by</dt>
      <dd className="break-all text-zinc-700 dark:text-zinc-300">{request.requester.email ?? "a former member"}</dd>
      <dt className="font-medium">Asked</dt>
      <dd className="text-zinc-700 dark:text-zinc-300">
        <Timestamp date={request.createdAt} now={now} />
      </dd>
      <dt className="font-medium">Reason</dt>
      <dd className="break-words whitespace-pre-wrap text-zinc-700 dark:text-zinc-300" data-testid="request-reason">
        {request.reason}
      </dd>
      <dt className="font-medium">Access</dt>
      <dd className="text-zinc-700 dark:text-zinc-300">
        {accessSummary(request.restrictions) ?? "Every scope, from any address, at the default rate limit"}
      </dd>
      <dt className="font-medium">Key expires</dt>
      <dd className="text-zinc-700 dark:text-zinc-300">
        {request.expiresAt ? <Timestamp date={request.expiresAt} now={now} /> : "Never"}
      </dd>
      {request.state === "pending" && (
        <>
          <dt className="font-medium">Decide by</dt>
          <dd className="text-zinc-700 dark:text-zinc-300">
            <Timestamp date={request.decideBy} now={now} />, then it expires
          </dd>
        </>
      )}
      {request.decidedBy && (
        <>
          <dt className="font-medium">{request.state === "denied" ? "Denied by" : "Approved by"}</dt>
          <dd className="break-all text-zinc-700 dark:text-zinc-300">
            {request.decidedBy}
            {request.decidedAt && (
              <>
                , <Timestamp date={request.decidedAt} now={now} />
              </>
            )}
          </dd>
        </>
      )}
      {request.comment && (
        <>
          <dt className="font-medium">Comment</dt>
          <dd
            className="break-words whitespace-pre-wrap text-zinc-700 dark:text-zinc-300"
            data-testid="request-comment"
          >
            {request.comment}
          </dd>
        </>
      )}
      {request.state === "approved" && request.revealBy && (
        <>
          <dt className="font-medium">Reveal by</dt>
          <dd className="text-zinc-700 dark:text-zinc-300">
            <Timestamp date={request.revealBy} now={now} />
          </dd>
        </>
      )}
      {request.keyId && (
        <>
          <dt className="font-medium">Key</dt>
          <dd>
            <Link href={keyPath(slug, request.keyId)}>{request.keyId}</Link>
          </dd>
        </>
      )}
    </dl>
  );
}

export function KeyRequestList({ slug, requests, now }: { slug: string; requests: KeyRequestView[]; now: Date }) {
  return (
    <ul
      className="mt-4 divide-y divide-zinc-200 rounded-md border border-zinc-200 text-sm dark:divide-zinc-800 dark:border-zinc-800"
      data-testid="key-requests"
    >
      {requests.map((request) => (
        <li key={request.id} className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-3">
          <span className="flex min-w-0 flex-col gap-1">
            <Link href={keyRequestPath(slug, request.id)} className="font-medium break-all">
              {request.label}
            </Link>
            <span className="break-all text-zinc-700 dark:text-zinc-300">
              {request.requester.email ?? "a former member"} · <Timestamp date={request.createdAt} now={now} />
            </span>
          </span>
          <KeyRequestBadge state={request.state} />
        </li>
      ))}
    </ul>
  );
}
