"use client";

import { useState } from "react";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import type { KeyEnvironment } from "@/lib/keys/format";
import { displayEntry } from "@/lib/keys/ip-allowlist";
import type { RestrictionOptions } from "@/lib/keys/restriction-options";
import type { KeyRestrictions } from "@/lib/keys/restrictions";
import { scopeField } from "@/lib/keys/scope-field";
import { READ_ONLY_SCOPES, SCOPE_NAMES, SCOPES, scopeChoice, type Scope, type ScopeChoice } from "@/lib/keys/scopes";

// The fields that restrict a key, shared by the create dialog and the key's
// page: what it can do (All, Read only, or chosen scopes, with the routes that
// allows), where it can be used from, and how often.

const ACCESS_OPTIONS: readonly [ScopeChoice, string, string][] = [
  ["all", "All", "Every route, including routes added later."],
  ["read-only", "Read only", "Read the catalog and generations; create nothing."],
  ["custom", "Chosen scopes", "Only the scopes you tick."],
];

interface Props {
  initial: KeyRestrictions;
  environment: KeyEnvironment;
  options: RestrictionOptions;
  /** What was typed before the last refusal, by field name. */
  value: (name: string) => string | undefined;
  fieldError: (name: string) => string | undefined;
  /** Whether the key's own rate limit is asked for (not for a team's defaults, which set access only). */
  withRateLimit?: boolean;
}

function initialScopes(initial: KeyRestrictions, value: Props["value"], submitted: boolean): Set<Scope> {
  if (submitted) return new Set(SCOPE_NAMES.filter((scope) => value(scopeField(scope)) === "on"));
  return new Set(initial.scopes === "all" ? [] : initial.scopes);
}

export function RestrictionFields({ initial, environment, options, value, fieldError, withRateLimit = true }: Props) {
  const submitted = value("access") !== undefined;
  const [access, setAccess] = useState<ScopeChoice>((value("access") as ScopeChoice) ?? scopeChoice(initial.scopes));
  const [chosen, setChosen] = useState(() => initialScopes(initial, value, submitted));
  const effective: readonly Scope[] =
    access === "all"
      ? SCOPE_NAMES
      : access === "read-only"
        ? READ_ONLY_SCOPES
        : SCOPE_NAMES.filter((s) => chosen.has(s));
  const routes = effective.flatMap((scope) => options.routesByScope[scope]);
  const total = SCOPE_NAMES.flatMap((scope) => options.routesByScope[scope]).length;
  const defaultLimit = options.defaultRateLimits[environment];
  const scopesError = fieldError("scopes");

  const toggle = (scope: Scope, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(scope);
      else next.delete(scope);
      return next;
    });

  return (
    <>
      <fieldset className="flex flex-col gap-2" aria-describedby="scope-summary">
        <legend className="text-sm font-medium">What it can do</legend>
        {ACCESS_OPTIONS.map(([choice, text, hint]) => (
          <label key={choice} className="flex min-h-8 items-start gap-2 text-sm">
            <input
              type="radio"
              name="access"
              value={choice}
              checked={access === choice}
              onChange={() => setAccess(choice)}
              className="mt-1"
            />
            <span>
              <span className="font-medium">{text}</span>
              <span className="block text-xs text-zinc-600 dark:text-zinc-400">{hint}</span>
            </span>
          </label>
        ))}
        {access === "custom" && (
          <fieldset
            className="ml-6 flex flex-col gap-1"
            aria-invalid={scopesError ? true : undefined}
            aria-describedby={scopesError ? "scopes-error" : undefined}
            tabIndex={scopesError ? -1 : undefined}
          >
            <legend className="sr-only">Scopes</legend>
            {SCOPE_NAMES.map((scope) => (
              <label key={scope} className="flex min-h-8 items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  name={scopeField(scope)}
                  checked={chosen.has(scope)}
                  onChange={(event) => toggle(scope, event.target.checked)}
                  className="mt-1"
                />
                <span>
                  <code>{scope}</code>
                  <span className="block text-xs text-zinc-600 dark:text-zinc-400">{SCOPES[scope]}</span>
                </span>
              </label>
            ))}
            {scopesError && (
              <p id="scopes-error" className="text-sm text-red-700 dark:text-red-300">
                {scopesError}
              </p>
            )}
          </fieldset>
        )}
        <details id="scope-summary" className="text-xs text-zinc-600 dark:text-zinc-400">
          <summary className="cursor-pointer">
            {access === "all"
              ? `Can call all ${total} routes, and any added later`
              : `Can call ${routes.length} of ${total} routes`}
          </summary>
          <ul className="mt-1 flex flex-col gap-0.5 font-mono break-all">
            {routes.map((route) => (
              <li key={route}>{route}</li>
            ))}
          </ul>
        </details>
      </fieldset>
      <Textarea
        label="IP allowlist (optional)"
        name="allowedIps"
        rows={3}
        defaultValue={value("allowedIps") ?? initial.allowedIps?.map(displayEntry).join("\n") ?? ""}
        hint="Addresses or CIDR ranges, one per line, such as 203.0.113.0/24 or 2001:db8::/32. Leave it empty to allow any address."
        error={fieldError("allowedIps")}
        spellCheck={false}
        autoCapitalize="off"
      />
      {withRateLimit && (
        <Input
          label="Rate limit (requests per minute, optional)"
          name="rateLimit"
          type="number"
          inputMode="numeric"
          min={1}
          max={defaultLimit}
          defaultValue={value("rateLimit") ?? initial.rateLimit ?? ""}
          hint={`Leave it empty for the ${environment === "prod" ? "Production" : "Development"} default, ${defaultLimit} per minute; a key's own limit can only be lower.`}
          error={fieldError("rateLimit")}
        />
      )}
    </>
  );
}
