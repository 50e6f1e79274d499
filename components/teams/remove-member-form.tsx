"use client";

import Link from "next/link";
import { useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { EnvironmentBadge } from "@/components/keys/key-badges";
import { Button } from "@/components/ui/button";
import { GRACE_OPTIONS, DEFAULT_GRACE } from "@/lib/keys/grace";
import type { KeyEnvironment } from "@/lib/keys/format";
import { removeMemberAction, type RemovalOutcome } from "@/lib/web/actions/teams";
import { keyPath, membersPath } from "@/lib/web/team-paths";

export interface DepartingKey {
  id: string;
  label: string;
  environment: KeyEnvironment;
  displayFragment: string;
  /** Already rotated (in its grace period): it can be handed over only as it is. */
  rotated: boolean;
  /** A service account's key they made or rotated (they know its secret); null for one of their own. */
  serviceAccount: string | null;
  mayHandOver: boolean;
}

/** The choices for one of their own keys: revoke, or hand it to a service account, rotated (proposed) or as it is. */
function choices(key: DepartingKey, serviceAccounts: { id: string; name: string }[], self: boolean) {
  if (key.serviceAccount) return knownChoices(key, self);
  const options: [string, string][] = [["revoke", "Revoke it: it stops working at once"]];
  if (!key.mayHandOver) return options;
  for (const account of serviceAccounts) {
    if (!self && !key.rotated)
      options.push([
        `rotate:${account.id}`,
        `Hand it to ${account.name} and rotate it (recommended): the new secret is shown here`,
      ]);
    options.push([
      `keep:${account.id}`,
      `Hand it to ${account.name} as it is: ${self ? "you" : "they"} still know its secret`,
    ]);
  }
  return options;
}

/** A service account's key they know: it stays the service account's; rotate it (proposed), keep it, or revoke it. */
function knownChoices(key: DepartingKey, self: boolean): [string, string][] {
  const keep: [string, string] = ["keep", `Keep it working as it is: ${self ? "you" : "they"} still know its secret`];
  if (!key.mayHandOver) return [keep];
  const options: [string, string][] = [];
  if (!self && !key.rotated) options.push(["rotate", "Rotate it (recommended): the new secret is shown here"]);
  options.push(keep, ["revoke", `Revoke it: ${key.serviceAccount}'s key stops working at once`]);
  return options;
}

/**
 * The removal (or leaving) form: each key the member made in the team, and
 * what happens to it. The server checks every choice again; after a removal,
 * each rotated key's new secret is shown here once.
 */
export function RemoveMemberForm({
  team,
  userId,
  email,
  self,
  keys,
  serviceAccounts,
  mayCreateServiceAccount,
}: {
  team: string;
  userId: string;
  email: string;
  self: boolean;
  keys: DepartingKey[];
  serviceAccounts: { id: string; name: string }[];
  mayCreateServiceAccount: boolean;
}) {
  const [outcome, setOutcome] = useState<RemovalOutcome | null>(null);
  const { pending, form, error, fieldError, value } = useActionForm(removeMemberAction, {
    onSuccess: (data) => setOutcome(data),
  });
  if (outcome) return <Outcome team={team} outcome={outcome} />;
  const own = keys.filter((key) => !key.serviceAccount);
  // Whether any of their own keys can be handed over here (the note says why not, when none can).
  const offered = own.length === 0 || (own.some((key) => key.mayHandOver) && serviceAccounts.length > 0);

  return (
    <form {...form} className="mt-4 flex flex-col gap-4" noValidate>
      <input type="hidden" name="team" value={team} />
      <input type="hidden" name="userId" value={userId} />
      {keys.length === 0 ? (
        <p className="text-zinc-700 dark:text-zinc-300">
          {self ? "You made no keys in use in this team." : `${email} made no keys in use in this team.`} Nothing else
          changes.
        </p>
      ) : (
        <>
          <p className="text-zinc-700 dark:text-zinc-300">
            {self ? "The keys you made in this team" : "The keys they made in this team"} stop working at once, unless
            you hand one to a service account of the team: then it keeps working, with its usage and history.{" "}
            {self
              ? "You know their secrets: an admin of the team should rotate any key you hand over."
              : "They know its secret, so rotating it as you hand it over is proposed: the old secret keeps working while you deploy the new one."}
          </p>
          {!offered && (
            <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="no-handover">
              {serviceAccounts.length === 0
                ? mayCreateServiceAccount
                  ? "This team has no service account to hand keys to: create one on the members page first."
                  : "This team has no service account to hand keys to."
                : "Your role in this team cannot hand these keys to a service account."}
            </p>
          )}
          <FormAlert message={error} />
          <KeyChoices
            title={self ? "Keys you made" : "Keys they made"}
            keys={own}
            choose={(key) => choices(key, serviceAccounts, self)}
            team={team}
            value={value}
            fieldError={fieldError}
          />
          <KeyChoices
            title={
              self
                ? "Service accounts' keys you made or rotated: they keep working, and you know their secrets"
                : "Service accounts' keys they made or rotated: they keep working, and they know their secrets"
            }
            keys={keys.filter((key) => key.serviceAccount)}
            choose={(key) => knownChoices(key, self)}
            team={team}
            value={value}
            fieldError={fieldError}
          />
        </>
      )}
      {!self && keys.some((key) => key.mayHandOver && !key.rotated) && (
        <div className="flex flex-col gap-1 sm:max-w-md">
          <label htmlFor="removal-grace" className="text-sm font-medium">
            For each key you rotate: when the old secret, which they know, stops working
          </label>
          <select
            id="removal-grace"
            name="grace"
            defaultValue={value("grace") ?? DEFAULT_GRACE}
            className="min-h-10 w-full min-w-0 rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          >
            {GRACE_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="danger" disabled={pending}>
          {self ? "Leave team" : `Remove ${email}`}
        </Button>
        <Link href={membersPath(team)}>Cancel</Link>
      </div>
    </form>
  );
}

/**
 * One group of keys, each with what happens to it. A plain select, so the page works before (or without)
 * JavaScript: the browser posts the form itself.
 */
function KeyChoices({
  title,
  keys,
  choose,
  team,
  value,
  fieldError,
}: {
  title: string;
  keys: DepartingKey[];
  choose: (key: DepartingKey) => [string, string][];
  team: string;
  value: (name: string) => string | undefined;
  fieldError: (name: string) => string | undefined;
}) {
  if (keys.length === 0) return null;
  return (
    <section className="flex flex-col gap-3">
      <h2 className="font-semibold">{title}</h2>
      <ul className="flex flex-col gap-3">
        {keys.map((key) => {
          const name = `handover.${key.id}`;
          const options = choose(key);
          const id = `choice-${key.id}`;
          return (
            <li
              key={key.id}
              data-testid="departing-key"
              className="flex flex-col gap-3 rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800"
            >
              <div className="flex flex-wrap items-baseline gap-2">
                <Link href={keyPath(team, key.id)} className="min-w-0 font-medium break-all">
                  <bdi>{key.label}</bdi>
                </Link>
                <EnvironmentBadge environment={key.environment} />
                <code className="text-xs break-all text-zinc-600 dark:text-zinc-400">{key.displayFragment}</code>
                {key.serviceAccount && (
                  <span className="text-xs break-words text-zinc-700 dark:text-zinc-300">
                    Service account: <bdi>{key.serviceAccount}</bdi>
                  </span>
                )}
              </div>
              <div className="flex flex-col gap-1">
                <label htmlFor={id} className="text-sm font-medium">
                  What happens to “{key.label}”
                </label>
                <select
                  id={id}
                  name={name}
                  defaultValue={value(name) ?? options[0]![0]}
                  aria-invalid={fieldError(name) ? true : undefined}
                  className="min-h-10 w-full min-w-0 rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
                >
                  {options.map(([optionValue, text]) => (
                    <option key={optionValue} value={optionValue}>
                      {text}
                    </option>
                  ))}
                </select>
              </div>
              {fieldError(name) && (
                <p className="text-sm text-red-700 dark:text-red-300" role="alert">
                  {fieldError(name)}
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** After a removal: what happened, and each new secret once. */
function Outcome({ team, outcome }: { team: string; outcome: RemovalOutcome }) {
  return (
    <div className="mt-4 flex flex-col gap-4">
      <p role="status">{outcome.message}</p>
      {outcome.replacements.length > 0 && (
        <section aria-labelledby="new-secrets" className="rounded-md border border-amber-300 p-4 dark:border-amber-800">
          <h2 id="new-secrets" className="font-semibold">
            Save the new keys now: they are shown only once
          </h2>
          <ul className="mt-3 flex flex-col gap-4">
            {outcome.replacements.map((r) => (
              <li key={r.keyId} data-testid="handed-over-secret" className="flex flex-col gap-1 text-sm">
                <span className="break-words">
                  “<bdi>{r.label}</bdi>”, now {r.serviceAccount}&apos;s: the old secret stops {r.oldKeyStopsAt}.
                </span>
                <input
                  readOnly
                  aria-label={`New secret of “${r.label}”`}
                  value={r.secret}
                  className="w-full rounded-md border border-zinc-300 bg-zinc-50 px-3 py-2 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-900"
                  onFocus={(event) => event.currentTarget.select()}
                />
                <Link href={keyPath(team, r.keyId)}>Open the new key</Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      <Link href={membersPath(team)}>Back to the members</Link>
    </div>
  );
}
