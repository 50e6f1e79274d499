import type { Metadata } from "next";
import Link from "next/link";
import { DocsArticle } from "@/components/docs/docs-article";
import { RoleMatrix } from "@/components/teams/role-matrix";
import { LEFT_TEAM_REASON, OWNED_TEAMS_MAX } from "@/lib/teams/members";
import { SLUG_MAX, SLUG_MIN } from "@/lib/teams/slug";
import { SERVICE_ACCOUNTS_MAX } from "@/lib/teams/service-accounts";
import { INVITATION_LIFETIME_MS, INVITATIONS_PER_HOUR, PENDING_INVITATIONS_MAX } from "@/lib/teams/invitations";
import { DEFAULT_GRACE, GRACE_OPTIONS } from "@/lib/keys/grace";
import { PolicyTable } from "@/components/teams/policy-table";

const INVITATION_DAYS = INVITATION_LIFETIME_MS / (24 * 60 * 60 * 1000);

/** How long the old secret works after a handover's rotation, as the dialog says it ("24 hours"). */
const graceText = GRACE_OPTIONS.find((option) => option.value === DEFAULT_GRACE)!.label.replace(/^In /, "");

export const metadata: Metadata = { title: "Teams and roles" };

export default function TeamsAndRolesPage() {
  return (
    <DocsArticle
      href="/docs/teams-and-roles"
      title="Teams and roles"
      lead={
        <p>
          A team owns API keys, their usage and their activity; its members share them, each with a role that the server
          checks on every change. Every account has a personal team, with its owner alone in it.
        </p>
      }
      sections={[
        {
          id: "teams",
          title: "Teams",
          content: (
            <>
              <p>
                The header&apos;s team switcher lists your teams. Every page of a team names it in its address, as{" "}
                <code>/dashboard/payments/keys/key_…</code>, so a link in a mail or a chat opens the right team. A link
                from before teams (<code>/dashboard/keys/key_…</code>) still opens the key&apos;s page, for anyone in
                its team.
              </p>
              <p>
                A team&apos;s address is chosen when it is made: {SLUG_MIN} to {SLUG_MAX} lowercase letters, digits and
                hyphens, starting with a letter, proposed from its name, and never changed. You can own up to{" "}
                {OWNED_TEAMS_MAX} teams besides your personal one.
              </p>
              <p>
                Keys of a team share its limits: the requests per minute of all its keys of an environment together, 100
                keys in use, and its file storage. Any key of a team and environment reads the files and generations the
                team&apos;s other keys of that environment made. The 13 routes of the API do not change.
              </p>
            </>
          ),
        },
        {
          id: "roles",
          title: "What each role may do",
          content: (
            <>
              <p>
                This table is drawn from the one the server checks, so it cannot say otherwise. Someone outside a team
                gets &ldquo;not found&rdquo; for its pages and keys, never &ldquo;forbidden&rdquo;: nothing tells them
                the team exists.
              </p>
              <RoleMatrix />
              <p>
                Anyone in the team may report a key leaked, since stopping a leak should never wait for a role: the key
                is revoked at once. A replacement, whose secret the reporter is shown, is made only for someone who may
                change that key: a viewer, or a developer reporting another member&apos;s production key, revokes it,
                and its maker or an admin makes the new one. A team always has an owner: its last owner cannot leave, be
                removed or be demoted.
              </p>
              <p>
                A replacement key, from a rotation or a leak report, belongs to the member who made it, since they are
                the one shown its secret. The team&apos;s activity log holds every change to its keys and members and
                names who made each (a member, an operator, or a leak report); it is chained, each entry to the one
                before by a hash signed with a key only the service holds, so a change to the history shows. Where each
                change came from (address and browser) is shown to admins and owners, who may also download the log with
                its hashes. Your own sign-ins and account changes are on your account page, not in a team&apos;s log.
                Notices about a team&apos;s key (a decoy used, a revoked key still tried) go to its maker while they are
                a member, and to the team&apos;s admins and owners. Reminders that a key expires in 7 days and in 1 day
                go to whoever renews it: its maker, or for a service account&apos;s key the team&apos;s admins and
                owners; a key made to live less than that is not reminded of a day it was made inside.
              </p>
            </>
          ),
        },
        {
          id: "invitations",
          title: "Invitations",
          content: (
            <>
              <p>
                Admins invite people by email from the team&apos;s members page, each with a role; inviting an owner
                takes an owner. The mail&apos;s link works for {INVITATION_DAYS} days, once, and only for that address:
                its owner signs in with it and joins, or, without an account, creates one from the link (the link proves
                the address, as a sign-up&apos;s own link does). Someone signed in with another address is told the link
                was not found, whether it still waits, was withdrawn, has expired or was used; only the link&apos;s
                holder without a session, or that address&apos;s own, is told that it no longer works.
              </p>
              <p>
                Waiting invitations are listed on the members page, where they can be sent again (with a new link: the
                old one stops working) or withdrawn (the link then says so). A team has at most{" "}
                {PENDING_INVITATIONS_MAX} invitations waiting and sends at most {INVITATIONS_PER_HOUR} an hour. The
                answer to an invitation is the same whether the address already has an account: nothing tells the
                inviter, in what it says or how long it takes.
              </p>
            </>
          ),
        },
        {
          id: "service-accounts",
          title: "Service accounts",
          content: (
            <>
              <p>
                A service account stands for a program, not a person: CI, a backend, a partner&apos;s integration. It is
                a member of one team that owns keys, and those keys keep working whoever leaves the team. It has no
                email, password or session, and nothing can sign in as it: it is not an account. Its keys are ordinary
                keys, valid on the same 13 routes of the API, and nothing in the API manages teams or service accounts.
              </p>
              <p>
                Admins and owners make service accounts, on the team&apos;s members page (up to {SERVICE_ACCOUNTS_MAX}{" "}
                per team, each name once, whatever its case). When you create a key, choose who it belongs to: you, or
                one of the service accounts. Developers give a service account development keys; its production keys
                take an admin, since they are no one&apos;s own. A personal team has no service accounts.
              </p>
            </>
          ),
        },
        {
          id: "leaving",
          title: "When someone leaves",
          content: (
            <>
              <p>
                Removing a member, or their leaving, ends their membership at once: their next request to the
                team&apos;s pages is refused. Before it, the removal page lists the keys they made in the team that
                still work, and offers for each to hand it to a service account instead of revoking it. A key handed
                over as it is keeps its id, its secret, its usage and its history. Handed over and rotated (the proposed
                way), it goes to the service account and stops working when its grace period ends, keeping its usage and
                history, and the service account gets a new key in its place, with a new id and a new secret. Either way
                the activity log says who handed it to whom.
              </p>
              <p>
                The person leaving still knows the secret of each key they made, so handing one over proposes to rotate
                it at the same time: a new key of the service account is made, its secret is shown once on the page to
                whoever removes the member (the page needs JavaScript for that), and the old secret keeps working while
                the new one is deployed: {graceText} unless you choose another time, from at once to 7 days. Handing a
                key over as it is, with its secret unchanged, is a choice you make explicitly. The same page lists the
                service accounts&apos; keys the person made or rotated, whose secrets they know too, and proposes to
                rotate those. A member who leaves may hand their keys over but not rotate them (they would be shown the
                new secret); an admin should rotate those keys next. A removal that revokes, hands over or rotates a
                production key takes a fresh sign-in, as revoking or rotating it from its page does; so does deleting a
                team that holds one. Invitations they sent that are still waiting are withdrawn.
              </p>
              <p>
                Every key not handed over is revoked in the same step, with the reason &ldquo;{LEFT_TEAM_REASON}
                &rdquo;, so a key in their hands stops working on the next API request, on every server. Keys others
                made and the keys of their personal team are untouched, and so are the service accounts&apos; keys,
                except those the person made or rotated: those are rotated, kept or revoked as chosen on the removal
                page (the operator&apos;s <code>team:remove-member</code> keeps them and names them).
              </p>
              <p>
                An owner may delete a team (never a personal one), typing its address to confirm: every key of it stops
                working at once, the service accounts&apos; too, every member is told and loses it, and its history is
                kept. Its address is never used again. See <Link href="/docs/managing-keys">Managing keys</Link> for
                rotation.
              </p>
            </>
          ),
        },
        {
          id: "policies",
          title: "Team policies",
          content: (
            <>
              <p>
                A team&apos;s admins and owners set its policies on the team&apos;s <strong>Settings</strong> page; each
                change is in the team&apos;s activity log. Members see a policy beside the control it limits: the key
                form says which environments and expiries the team allows before anything is sent. The server applies
                every policy on every path that makes a key: the dashboard, rotation, a leak report&apos;s replacement,
                a departure&apos;s handover and the operator&apos;s command line. This table is drawn from the one those
                checks read.
              </p>
              <PolicyTable />
              <p>
                A decoy key never works, so no maximum lifetime applies to it. The operator may make a key a policy
                refuses with <code>key:create --override-policy</code>; its activity entry says so.
              </p>
            </>
          ),
        },
        {
          id: "operators",
          title: "For operators",
          content: (
            <p>
              Operators manage teams with the command line: <code>team:create</code>, <code>team:invite</code> (it mails
              the invitation and prints it without its link), <code>team:add-member</code> (an existing account),{" "}
              <code>team:set-role</code>, <code>team:remove-member</code> (with <code>--transfer-to NAME</code> it hands
              every key of the member to that service account, without rotating them, and says so; their decoy keys are
              revoked, never handed over) and <code>team:members</code>; <code>team:policy</code> (prints the
              team&apos;s policies, and sets those given); <code>service-account:create</code> and{" "}
              <code>service-account:list</code>; <code>key:create --team</code> (with{" "}
              <code>--service-account NAME</code>, a key of that service account) and <code>key:list --team</code>.{" "}
              <code>docs/operations.md</code> in the repository has each command.
            </p>
          ),
        },
      ]}
    />
  );
}
