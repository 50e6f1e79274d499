"use client";

import { useTeam } from "@/components/teams/team-context";
import { useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { createKeyAction, type KeyActionData } from "@/lib/web/actions/keys";
import { requestKeyAction, type KeyRequestData } from "@/lib/web/actions/key-requests";
import { Textarea } from "@/components/ui/textarea";
import type { KeyEnvironment } from "@/lib/keys/format";
import { DEFAULT_EXPIRY } from "@/lib/keys/expiry";
import { can } from "@/lib/teams/roles";
import {
  KEY_REQUEST_DAYS,
  KEY_REQUEST_REASON_MAX,
  latestExpiry,
  mayWidenPastDefaults,
  mustRequestProductionKey,
  productionKeyRefusal,
  ruleAllowsProductionKey,
} from "@/lib/teams/policies";
import type { RestrictionOptions } from "@/lib/keys/restriction-options";
import { accessSummary, UNRESTRICTED } from "@/lib/keys/restrictions";
import { RestrictionFields } from "./restriction-fields";

const ENVIRONMENT_OPTIONS = [
  ["dev", "Development"],
  ["prod", "Production"],
] as const;

/** The "belongs to" choice for the person making the key (a Radix select cannot hold an empty value). */
const SELF = "self";

const EXPIRY_OPTIONS = [
  ["never", "Never"],
  ["30", "In 30 days"],
  ["90", "In 90 days"],
  ["date", "On a date…"],
] as const;

/** The expiry choices a team's maximum lifetime leaves (none: all of them), and the one the form starts on. */
function expiryChoices(maxDays: number | null, environment: KeyEnvironment) {
  if (maxDays === null) return { options: EXPIRY_OPTIONS, initial: DEFAULT_EXPIRY[environment] as string };
  // The policy's own day is a date, so "On a date…" comes first and the form suggests the maximum.
  const options = EXPIRY_OPTIONS.filter(
    ([choice]) => choice !== "never" && (choice === "date" || Number(choice) <= maxDays),
  );
  return { options: [options.at(-1)!, ...options.slice(0, -1)], initial: "date" };
}

export function CreateKeyDialog({
  options,
  onClose,
  onDone,
  onRequested,
  onCloseAutoFocus,
}: {
  options: RestrictionOptions;
  onClose: () => void;
  onDone: (data: KeyActionData) => void;
  /** A developer under "developers with approval" asked for a production key instead of making it. */
  onRequested: (data: KeyRequestData) => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const team = useTeam();
  const creating = useActionForm(createKeyAction, { onSuccess: onDone });
  const requesting = useActionForm(requestKeyAction, { onSuccess: onRequested });
  // The team's policies, shown beside what they limit (the server applies them whatever this form sends).
  // Production keys the rule keeps from this member (their role's own limits are the server's refusal to give),
  // and production keys they ask for instead (lib/keys/key-requests.ts).
  const asks = mustRequestProductionKey(team.policy.productionKeys, team.role);
  const productionByPolicy =
    asks || !can(team.role, "keys.create_prod") || ruleAllowsProductionKey(team.policy.productionKeys, team.role);
  const [environment, setEnvironment] = useState<KeyEnvironment>(
    creating.value("environment") === "prod" || requesting.state ? "prod" : "dev",
  );
  const request = asks && environment === "prod";
  const { pending, form, error, fieldError, value } = request ? requesting : creating;
  const maxDays = team.policy.maxLifetimeDays[environment];
  const choices = expiryChoices(maxDays, environment);
  const [expiry, setExpiry] = useState<string>(value("expiry") ?? choices.initial);
  // Switching environment moves the expiry to that environment's default until the user picks one.
  const [expiryChosen, setExpiryChosen] = useState(value("expiry") !== undefined);
  // A decoy never works, so it has no expiry, access or owner to choose: the dialog asks for its label alone.
  const [decoy, setDecoy] = useState(value("decoy") === "on");
  const chooseEnvironment = (next: KeyEnvironment) => {
    setEnvironment(next);
    const nextChoices = expiryChoices(team.policy.maxLifetimeDays[next], next);
    if (!expiryChosen || !nextChoices.options.some(([choice]) => choice === expiry)) setExpiry(nextChoices.initial);
  };
  // The defaults limit a member who may not widen them; for the others they are only where the form starts.
  const defaultsLimit = mayWidenPastDefaults(team.role)
    ? null
    : accessSummary({ ...team.policy.productionDefaults, rateLimit: null });
  const latest = maxDays === null ? null : latestExpiry(maxDays, new Date()).toISOString().slice(0, 10);

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && !pending && onClose()}
      title={request ? "Request a production key" : "Create an API key"}
      onCloseAutoFocus={onCloseAutoFocus}
    >
      <form {...form} className="flex flex-col gap-4" noValidate>
        <input type="hidden" name="team" value={team.slug} />
        <FormAlert message={error} />
        <Input
          label="Label"
          name="label"
          required
          maxLength={64}
          defaultValue={value("label")}
          hint="What uses this key, e.g. “billing service”."
          error={fieldError("label")}
        />
        {team.serviceAccounts.length > 0 && !request && !decoy && (
          <Select
            label="Belongs to"
            name="serviceAccount"
            defaultValue={value("serviceAccount") ?? SELF}
            options={[
              [SELF, "You: it stops working if you leave the team"],
              ...team.serviceAccounts.map(
                (account) => [account.id, `${account.name} (service account): it outlives any departure`] as const,
              ),
            ]}
          />
        )}
        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-medium">Environment</legend>
          {ENVIRONMENT_OPTIONS.map(([value, text]) => (
            <label key={value} className="flex min-h-8 items-center gap-2 text-sm">
              <input
                type="radio"
                name="environment"
                value={value}
                checked={environment === value}
                disabled={value === "prod" && !productionByPolicy}
                onChange={() => chooseEnvironment(value)}
              />
              <span
                className={value === "prod" && !productionByPolicy ? "text-zinc-500 dark:text-zinc-400" : undefined}
              >
                {text} (<code>sk_{value}_</code>)
              </span>
            </label>
          ))}
          {!productionByPolicy && (
            <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="production-policy">
              {productionKeyRefusal(team.policy.productionKeys)}
            </p>
          )}
          {request && (
            <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="production-policy">
              This team&apos;s policy: a developer&apos;s production key needs an admin&apos;s approval. Your request
              goes to the team&apos;s admins; once one approves, you reveal the key here within {KEY_REQUEST_DAYS} days,
              and its secret is made then, for you alone.
            </p>
          )}
          {fieldError("environment") && (
            <p className="text-sm text-red-700 dark:text-red-300">{fieldError("environment")}</p>
          )}
        </fieldset>
        {request && (
          <Textarea
            label="Why the team needs it"
            name="reason"
            required
            rows={3}
            maxLength={KEY_REQUEST_REASON_MAX}
            defaultValue={value("reason")}
            hint={`The admins read this (at most ${KEY_REQUEST_REASON_MAX} characters). Never paste a key here.`}
            error={fieldError("reason")}
            className="font-sans"
          />
        )}
        {!request && (
          <label className="flex min-h-8 items-start gap-2 text-sm">
            <input
              type="checkbox"
              name="decoy"
              checked={decoy}
              onChange={(event) => setDecoy(event.target.checked)}
              className="mt-1"
            />
            <span>
              <span className="font-medium">Decoy key</span>: it never works, and any use of it alerts you. Place it
              where a real key would sit (a config file, a CI secret) to learn the moment that place leaks.
            </span>
          </label>
        )}
        {decoy ? (
          <input type="hidden" name="expiry" value="never" />
        ) : (
          <>
            <Select
              label="Expires"
              name="expiry"
              value={expiry}
              onValueChange={(next) => {
                setExpiry(next);
                setExpiryChosen(true);
              }}
              options={choices.options}
            />
            {latest && (
              <p className="-mt-2 text-sm text-zinc-700 dark:text-zinc-300" data-testid="lifetime-policy">
                This team&apos;s policy: {environment === "prod" ? "production" : "development"} keys expire within{" "}
                {maxDays} days, on {latest} (UTC) at the latest.
              </p>
            )}
            {fieldError("expiry") && (
              <p className="-mt-2 text-sm text-red-700 dark:text-red-300">{fieldError("expiry")}</p>
            )}
            {expiry === "never" && environment === "prod" && (
              <p
                role="note"
                className="-mt-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
              >
                A production key that never expires keeps working wherever it is copied until someone revokes it. Prefer
                an expiry and rotate before it.
              </p>
            )}
            {expiry === "date" && (
              <Input
                // A new environment's maximum is a new suggestion.
                key={environment}
                label="Expiry date (UTC)"
                name="expiryDate"
                type="date"
                required
                max={latest ?? undefined}
                defaultValue={value("expiryDate") ?? latest ?? undefined}
                error={fieldError("expiryDate")}
              />
            )}
            {environment === "prod" && defaultsLimit && (
              <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="defaults-policy">
                This team&apos;s default for production keys: {defaultsLimit}. You may narrow it; a wider key needs an
                admin.
              </p>
            )}
            <RestrictionFields
              // A production key starts with the team's defaults (lib/teams/policies.ts), a development key with none.
              // (Keys among the form's children must differ: the expiry date is keyed by the environment too.)
              key={`restrictions-${environment}`}
              initial={environment === "prod" ? { ...team.policy.productionDefaults, rateLimit: null } : UNRESTRICTED}
              environment={environment}
              options={options}
              value={value}
              fieldError={fieldError}
            />
          </>
        )}
        <DialogActions>
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {request ? (pending ? "Sending…" : "Send request") : pending ? "Creating…" : "Create key"}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
