import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { KeyRequestBadge, KeyRequestFacts } from "@/components/keys/key-request-details";
import { DecideRequestForm, RevealRequestForm } from "@/components/keys/key-request-forms";
import { getKeyRequest } from "@/lib/keys/key-request-views";
import { keyRequestIdSchema } from "@/lib/keys/key.schema";
import { KEY_REQUEST_DAYS } from "@/lib/teams/policies";
import { can } from "@/lib/teams/roles";
import { requireTeamPage } from "@/lib/web/team-guard";
import { keyRequestPath, keyRequestsPath } from "@/lib/web/team-paths";

export const metadata: Metadata = { title: "Key request" };

// GET /dashboard/[team]/requests/[requestId]: one request for a production
// key, the page the admins' mail links to. Opening it only shows the request;
// deciding takes a button and a fresh sign-in. The requester reveals the
// approved key here. Anyone else in the team gets the same 404 as a request
// that does not exist.
export default async function KeyRequestPage({ params }: { params: Promise<{ team: string; requestId: string }> }) {
  const { team: slug, requestId } = await params;
  const { session, member } = await requireTeamPage(slug, keyRequestPath(slug, requestId));
  if (!keyRequestIdSchema.safeParse(requestId).success) notFound();
  const now = new Date();
  const request = await getKeyRequest(member.team.id, requestId, now);
  const decides = can(member.role, "keys.approve_requests");
  const own = request?.requester.id === session.userId;
  if (!request || (!decides && !own)) notFound();

  return (
    <>
      <p className="text-sm">
        <Link href={keyRequestsPath(member.team.slug)}>All requests</Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold break-words" tabIndex={-1}>
        Production key “{request.label}”
      </h1>
      <div className="mt-2">
        <KeyRequestBadge state={request.state} />
      </div>
      <KeyRequestFacts slug={member.team.slug} request={request} now={now} />
      <section aria-label="What happens next" className="mt-8 max-w-2xl">
        {request.state === "pending" && decides && !own && (
          <>
            <h2 className="text-lg font-semibold">Decide</h2>
            <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
              Approving lets the developer reveal this key once, within {KEY_REQUEST_DAYS} days. Its secret is made at
              that moment and shown to them alone: you will never see it.
            </p>
            <DecideRequestForm team={member.team.slug} requestId={request.id} />
          </>
        )}
        {request.state === "pending" && own && (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            Waiting for another admin or owner of the team to decide. You will get a mail when one does.
          </p>
        )}
        {request.state === "approved" && own && (
          <>
            <h2 className="text-lg font-semibold">Reveal your key</h2>
            <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
              The key is made when you reveal it, and its secret is shown this once. Have somewhere safe to put it.
            </p>
            <RevealRequestForm team={member.team.slug} requestId={request.id} />
          </>
        )}
        {request.state === "approved" && !own && (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            Approved. The developer reveals the key; no one else ever sees its secret.
          </p>
        )}
        {request.state === "revealed" && own && (
          <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="already-revealed">
            This key was revealed already: its secret was shown once and is not kept. If it was lost, rotate the key.
          </p>
        )}
        {request.state === "expired" && (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            This request expired: a request waits {KEY_REQUEST_DAYS} days for a decision, and an approved key as long to
            be revealed.
          </p>
        )}
      </section>
    </>
  );
}
