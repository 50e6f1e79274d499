import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { AcceptInvitationForm, SignUpFromInvitationForm } from "@/components/teams/invitation-forms";
import { FormAlert } from "@/components/forms/form-alert";
import { PASSWORD_MIN } from "@/lib/auth/credentials.schema";
import { absoluteTime } from "@/lib/format-time";
import { deadInvitationMessage, findInvitation } from "@/lib/teams/invitation-links";
import { optionalSession } from "@/lib/web/guard";

export const metadata: Metadata = { title: "Join a team", referrer: "strict-origin" };
// "strict-origin", as on the sign-up link's page: the token in this URL never reaches any Referer.

// GET /invitations/<token>: an invitation's link. Signed in with the invited
// address: a button that joins the team. Signed in with another address: not
// found, as for a link that does not exist, whatever the invitation's state
// (that it was withdrawn or used is news only for the address it was for).
// Not signed in: sign in with the address, or create its account from here.
// A withdrawn, expired or used link says so to its holder. Opening the page
// spends nothing.
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  await connection(); // per request: the CSP nonce, and the invitation's state now
  const { token } = await params;
  const found = await findInvitation(token);
  if (found.state === "unknown") notFound();
  const session = await optionalSession();
  if (session && session.email.toLowerCase() !== found.email) notFound();
  if (found.state !== "pending") {
    return (
      <>
        <h1 className="mb-6 text-2xl font-bold">Join a team</h1>
        <FormAlert message={deadInvitationMessage(found.state)} />
      </>
    );
  }
  const what = (
    <p className="mb-6 text-sm text-zinc-700 dark:text-zinc-300">
      You are invited to join <strong className="break-words">{found.team.name}</strong> as{" "}
      <strong>{found.role}</strong>, with the address <span className="break-all">{found.email}</span>. The invitation
      works until {absoluteTime(found.expiresAt)}.
    </p>
  );
  return (
    <>
      <h1 className="mb-6 text-2xl font-bold break-words">Join {found.team.name}</h1>
      {what}
      {session ? (
        <AcceptInvitationForm token={token} team={found.team.name} />
      ) : (
        <>
          <p className="mb-4 text-sm">
            Have an account with this address?{" "}
            <Link href={`/sign-in?callbackUrl=${encodeURIComponent(`/invitations/${token}`)}`}>Sign in</Link>, and you
            come back here.
          </p>
          <h2 className="mb-3 font-semibold">Or create your account</h2>
          <SignUpFromInvitationForm token={token} email={found.email} passwordMin={PASSWORD_MIN} />
        </>
      )}
    </>
  );
}
