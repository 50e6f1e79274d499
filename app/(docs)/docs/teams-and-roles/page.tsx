import type { Metadata } from "next";
import Link from "next/link";
import { DocsArticle } from "@/components/docs/docs-article";
import { RoleMatrix } from "@/components/teams/role-matrix";
import { LEFT_TEAM_REASON, OWNED_TEAMS_MAX } from "@/lib/teams/members";
import { SLUG_MAX, SLUG_MIN } from "@/lib/teams/slug";

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
                Notices about a team&apos;s key (a decoy used, a revoked key still tried, an expiry near) go to its
                maker while they are a member, and to the team&apos;s admins and owners.
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
                team&apos;s pages is refused. The keys they made in that team are revoked in the same step, with the
                reason &ldquo;{LEFT_TEAM_REASON}&rdquo;, so a key in their hands stops working on the next API request,
                on every server. Keys others made are untouched, and so are the keys of their personal team.
              </p>
              <p>
                An owner may delete a team (never a personal one), typing its address to confirm: every key of it stops
                working at once, every member is told and loses it, and its history is kept. Its address is never used
                again.
              </p>
              <p>
                Keys that must outlive any one person belong to a service account, which the members work will add;
                until then, have a member who stays make the keys your production runs on. See{" "}
                <Link href="/docs/managing-keys">Managing keys</Link> for rotation.
              </p>
            </>
          ),
        },
        {
          id: "operators",
          title: "For operators",
          content: (
            <p>
              Members are added with the operator CLI until invitations by mail land: <code>team:create</code>,{" "}
              <code>team:add-member</code>, <code>team:set-role</code>, <code>team:remove-member</code> and{" "}
              <code>team:members</code>, and <code>key:create --team</code> and <code>key:list --team</code>.{" "}
              <code>docs/operations.md</code> in the repository has each command.
            </p>
          ),
        },
      ]}
    />
  );
}
