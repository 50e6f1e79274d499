"use client";

import { FormAlert } from "@/components/forms/form-alert";
import { ActionStatus } from "@/components/forms/action-status";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
import { Input } from "@/components/ui/input";
import { TEAM_NAME_MAX } from "@/lib/teams/slug";
import { deleteTeamAction, renameTeamAction, setRoleAction } from "@/lib/web/actions/teams";
import { ROLES, type Role } from "@/lib/teams/roles";

/** A member's role, changeable by someone whose role may (the server checks it again). */
export function RoleForm({ team, userId, email, role }: { team: string; userId: string; email: string; role: Role }) {
  const { state, pending, form } = useActionForm(setRoleAction);
  return (
    <form {...form} className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="team" value={team} />
      <input type="hidden" name="userId" value={userId} />
      {/* A short visible label: the row already names the member; the button says whose role it changes. */}
      <div className="w-40">
        <Select label="Role" name="role" defaultValue={role} options={ROLES.map((r) => [r, r] as const)} />
      </div>
      <Button type="submit" variant="secondary" disabled={pending} aria-label={`Change the role of ${email}`}>
        Change role
      </Button>
      <ActionStatus state={state} />
    </form>
  );
}

/** The team's name, for its owners (the server checks the role again). */
export function RenameTeamForm({ team, name }: { team: string; name: string }) {
  const { state, pending, form, fieldError, value } = useActionForm(renameTeamAction);
  return (
    <form {...form} className="flex flex-wrap items-end gap-2" noValidate>
      <input type="hidden" name="team" value={team} />
      <div className="min-w-0 grow sm:max-w-md">
        <Input
          label="Team name"
          name="name"
          required
          maxLength={TEAM_NAME_MAX}
          defaultValue={value("name") ?? name}
          error={fieldError("name")}
        />
      </div>
      <Button type="submit" variant="secondary" disabled={pending}>
        Rename team
      </Button>
      <ActionStatus state={state} />
    </form>
  );
}

/** Deleting the team, for its owners: the team's address typed again to confirm (the server checks both). */
export function DeleteTeamForm({ team }: { team: string }) {
  const { pending, form, error, fieldError, value } = useActionForm(deleteTeamAction);
  return (
    <form {...form} className="flex flex-col gap-3" noValidate>
      <input type="hidden" name="team" value={team} />
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Every key of the team stops working at once, and every member loses the team. Its history is kept. This cannot
        be undone.
      </p>
      <FormAlert message={fieldError("confirm") ? undefined : error} />
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 grow sm:max-w-md">
          <Input
            label={`Type the team's address, ${team}, to confirm`}
            name="confirm"
            autoComplete="off"
            defaultValue={value("confirm")}
            error={fieldError("confirm")}
          />
        </div>
        <Button type="submit" variant="danger" disabled={pending}>
          Delete team
        </Button>
      </div>
    </form>
  );
}
