"use client";

import { useState } from "react";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Timestamp } from "@/components/ui/timestamp";
import { TEAM_NAME_MAX } from "@/lib/teams/slug";
import { createServiceAccountAction } from "@/lib/web/actions/teams";

/**
 * The team's service accounts on its members page: each with its keys in use, and for admins and owners the form
 * that makes one (the server checks the role again).
 */
export function ServiceAccounts({
  team,
  accounts,
  mayCreate,
  now,
}: {
  team: string;
  accounts: { id: string; name: string; createdAt: Date; keysInUse: number }[];
  mayCreate: boolean;
  now: Date;
}) {
  return (
    <section aria-labelledby="service-accounts-heading" className="mt-10">
      <h2 id="service-accounts-heading" className="text-lg font-semibold">
        Service accounts
      </h2>
      <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
        A service account stands for a program, not a person: CI, a backend, a partner&apos;s integration. It owns keys,
        which keep working whoever leaves the team. It has no email or password and can never sign in. Admins give it
        production keys; developers, development keys.
      </p>
      {accounts.length > 0 ? (
        <ul className="mt-4 divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {accounts.map((account) => (
            <li
              key={account.id}
              data-testid="service-account-row"
              className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-3 text-sm"
            >
              <span className="min-w-0 font-medium break-all">
                <bdi>{account.name}</bdi>
              </span>
              <span className="text-zinc-600 dark:text-zinc-400">
                {account.keysInUse === 1 ? "1 key in use" : `${account.keysInUse} keys in use`} · made{" "}
                <Timestamp date={account.createdAt} now={now} className="text-xs" />
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-4 text-sm text-zinc-700 dark:text-zinc-300">This team has no service accounts.</p>
      )}
      {mayCreate && <CreateServiceAccountForm team={team} />}
    </section>
  );
}

function CreateServiceAccountForm({ team }: { team: string }) {
  // Each success empties the field for the next name.
  const [made, setMade] = useState(0);
  const { state, pending, form, fieldError, value } = useActionForm(createServiceAccountAction, {
    onSuccess: () => setMade((n) => n + 1),
  });
  return (
    <form {...form} className="mt-4 flex flex-wrap items-end gap-2" noValidate>
      <input type="hidden" name="team" value={team} />
      <div className="min-w-0 grow sm:max-w-md">
        <Input
          label="New service account's name"
          name="name"
          required
          maxLength={TEAM_NAME_MAX}
          defaultValue={value("name") ?? ""}
          error={fieldError("name")}
          key={made}
        />
      </div>
      <Button type="submit" variant="secondary" disabled={pending}>
        Create service account
      </Button>
      <span role="status" className="text-sm break-words">
        {state?.ok ? state.data : state && !fieldError("name") ? state.error : ""}
      </span>
    </form>
  );
}
