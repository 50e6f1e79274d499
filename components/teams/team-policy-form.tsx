"use client";

import { FormAlert } from "@/components/forms/form-alert";
import { ActionStatus } from "@/components/forms/action-status";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import {
  LIFETIME_DAYS_MAX,
  LIFETIME_DAYS_MIN,
  PRODUCTION_KEY_RULE_TEXT,
  PRODUCTION_KEY_RULES,
  type TeamPolicy,
} from "@/lib/teams/policies";
import { setTeamPolicyAction } from "@/lib/web/actions/teams";
import { RestrictionFields } from "@/components/keys/restriction-fields";
import type { RestrictionOptions } from "@/lib/keys/restriction-options";

const LIFETIME_FIELDS = [
  ["prod", "maxLifetimeDaysProd", "production"],
  ["dev", "maxLifetimeDaysDev", "development"],
] as const;

const LIFETIME_HINT = `${LIFETIME_DAYS_MIN} to ${LIFETIME_DAYS_MAX} days. Empty: no maximum, keys may never expire.`;

/** The team's policies, for those whose role sets them (the server checks the role and every value again). */
export function TeamPolicyForm({
  team,
  policy,
  options,
  personal,
}: {
  team: string;
  policy: TeamPolicy;
  options: RestrictionOptions;
  /** A personal team has its owner alone: it has no members to require two-factor of. */
  personal: boolean;
}) {
  const { state, pending, form, error, fieldError, value } = useActionForm(setTeamPolicyAction);
  const days = (environment: "prod" | "dev") => policy.maxLifetimeDays[environment]?.toString() ?? "";
  return (
    <form {...form} className="flex max-w-xl flex-col gap-5" noValidate>
      <input type="hidden" name="team" value={team} />
      {/* The state this page shows: only a form that showed two-factor required turns it off. */}
      <input type="hidden" name="twoFactorShown" value={policy.requireTwoFactor ? "on" : "off"} />
      {/* A lifetime's error is shown at its field; any other (a role that may not, a rule the table lacks) here. */}
      <FormAlert
        message={
          fieldError("maxLifetimeDaysProd") ||
          fieldError("maxLifetimeDaysDev") ||
          fieldError("requireTwoFactor") ||
          fieldError("scopes") ||
          fieldError("allowedIps")
            ? undefined
            : error
        }
      />
      <div>
        <Select
          label="Who creates production keys"
          name="productionKeys"
          defaultValue={value("productionKeys") ?? policy.productionKeys}
          options={PRODUCTION_KEY_RULES.map((rule) => [rule, PRODUCTION_KEY_RULE_TEXT[rule].label] as const)}
        />
        <ul className="mt-2 list-disc pl-5 text-sm text-zinc-700 dark:text-zinc-300">
          {PRODUCTION_KEY_RULES.map((rule) => (
            <li key={rule}>
              <strong>{PRODUCTION_KEY_RULE_TEXT[rule].label}:</strong> {PRODUCTION_KEY_RULE_TEXT[rule].sentence}
            </li>
          ))}
        </ul>
      </div>
      {LIFETIME_FIELDS.map(([environment, field, name]) => (
        <Input
          key={field}
          label={`Maximum lifetime of ${name} keys, in days`}
          name={field}
          inputMode="numeric"
          autoComplete="off"
          defaultValue={value(field) ?? days(environment)}
          hint={LIFETIME_HINT}
          error={fieldError(field)}
        />
      ))}
      <fieldset className="flex flex-col gap-4 rounded-md border border-zinc-200 p-4 dark:border-zinc-800">
        <legend className="px-1 text-sm font-semibold">Defaults for new production keys</legend>
        <p className="-mt-2 text-sm text-zinc-700 dark:text-zinc-300">
          What the create dialog starts a production key with. Developers may narrow it, not go past it; admins and
          owners may. Keys made before keep their access.
        </p>
        <RestrictionFields
          initial={{ ...policy.productionDefaults, rateLimit: null }}
          environment="prod"
          options={options}
          value={value}
          fieldError={fieldError}
          withRateLimit={false}
        />
      </fieldset>
      <div hidden={personal}>
        <label className="flex min-h-8 items-start gap-2 text-sm">
          <input
            type="checkbox"
            name="requireTwoFactor"
            defaultChecked={value("productionKeys") ? value("requireTwoFactor") === "on" : policy.requireTwoFactor}
            aria-describedby="require-two-factor-hint"
            aria-invalid={fieldError("requireTwoFactor") ? true : undefined}
            className="mt-1"
          />
          <span className="font-medium">Require two-factor sign-in of every member</span>
        </label>
        <p id="require-two-factor-hint" className="mt-1 ml-6 text-sm text-zinc-700 dark:text-zinc-300">
          A member without it sees only the key list (and may report a key leaked) until they turn it on; their keys
          keep working. Turning this on mails them. Service accounts are not affected.
        </p>
        {fieldError("requireTwoFactor") && (
          <p className="mt-1 ml-6 text-sm text-red-700 dark:text-red-300">{fieldError("requireTwoFactor")}</p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending}>
          Save policies
        </Button>
        <ActionStatus state={state?.ok ? state : null} />
      </div>
    </form>
  );
}
