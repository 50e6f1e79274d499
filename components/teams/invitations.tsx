"use client";

import { useState } from "react";
import { ActionStatus } from "@/components/forms/action-status";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Timestamp } from "@/components/ui/timestamp";
import type { Role } from "@/lib/teams/roles";
import { inviteMemberAction, resendInvitationAction, revokeInvitationAction } from "@/lib/web/actions/invitations";

/** The invitation form, for admins (and owners, who may invite owners); the server checks the role again. */
export function InviteForm({ team, roles }: { team: string; roles: readonly Role[] }) {
  // Each success empties the address for the next one.
  const [sent, setSent] = useState(0);
  const { state, pending, form, fieldError, value } = useActionForm(inviteMemberAction, {
    onSuccess: () => setSent((n) => n + 1),
  });
  const fieldShown = fieldError("email") ?? fieldError("role");
  return (
    <form {...form} className="mt-4 flex flex-col gap-3" noValidate>
      <input type="hidden" name="team" value={team} />
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 grow sm:max-w-md">
          <Input
            key={sent}
            label="Email address to invite"
            name="email"
            type="email"
            autoComplete="off"
            required
            defaultValue={value("email") ?? ""}
            error={fieldError("email")}
          />
        </div>
        <div className="w-40">
          <Select
            label="Role"
            name="role"
            defaultValue={value("role") ?? "developer"}
            options={roles.map((r) => [r, r] as const)}
          />
        </div>
        <Button type="submit" variant="secondary" disabled={pending}>
          {pending ? "Sending…" : "Send invitation"}
        </Button>
      </div>
      {fieldError("role") && <p className="text-sm text-red-700 dark:text-red-300">{fieldError("role")}</p>}
      {!fieldShown && <ActionStatus state={state} />}
    </form>
  );
}

/** The team's invitations still waiting (or expired), each re-sendable and withdrawable by whoever may. */
export function PendingInvitations({
  team,
  invitations,
  mayChange,
  now,
}: {
  team: string;
  invitations: { id: string; email: string; role: Role; sentAt: Date; expiresAt: Date; expired: boolean }[];
  mayChange: Record<string, boolean>;
  now: Date;
}) {
  if (invitations.length === 0)
    return <p className="mt-4 text-sm text-zinc-700 dark:text-zinc-300">No invitations are waiting.</p>;
  return (
    <ul className="mt-4 divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
      {invitations.map((invitation) => (
        <li key={invitation.id} data-testid="invitation-row" className="flex flex-col gap-2 px-4 py-3 text-sm">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <span className="min-w-0 font-medium break-all">{invitation.email}</span>
            <span className="text-zinc-600 dark:text-zinc-400">
              {invitation.role} · sent <Timestamp date={invitation.sentAt} now={now} className="text-xs" /> ·{" "}
              {invitation.expired ? (
                <strong>expired</strong>
              ) : (
                <>
                  works until <Timestamp date={invitation.expiresAt} now={now} className="text-xs" />
                </>
              )}
            </span>
          </div>
          {mayChange[invitation.id] && (
            <div className="flex flex-wrap items-center gap-2">
              <InvitationButton team={team} invitation={invitation} kind="resend" />
              <InvitationButton team={team} invitation={invitation} kind="revoke" />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

function InvitationButton({
  team,
  invitation,
  kind,
}: {
  team: string;
  invitation: { id: string; email: string };
  kind: "resend" | "revoke";
}) {
  const { state, pending, form } = useActionForm(kind === "resend" ? resendInvitationAction : revokeInvitationAction);
  return (
    <form {...form} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="team" value={team} />
      <input type="hidden" name="invitation" value={invitation.id} />
      <Button
        type="submit"
        variant={kind === "resend" ? "secondary" : "danger"}
        disabled={pending}
        aria-label={`${kind === "resend" ? "Send again the invitation to" : "Withdraw the invitation to"} ${invitation.email}`}
      >
        {kind === "resend" ? "Send again" : "Withdraw"}
      </Button>
      <ActionStatus state={state} />
    </form>
  );
}
