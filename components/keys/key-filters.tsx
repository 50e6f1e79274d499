"use client";

import { useTeam } from "@/components/teams/team-context";
import { teamPath } from "@/lib/web/team-paths";
import { useEffect, useRef, useState } from "react";
import { useFilterForm } from "@/components/forms/use-filter-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { looksLikeWholeKey, WHOLE_KEY_IN_SEARCH } from "@/lib/keys/search";
import { KEY_STATUSES, KEY_STATUS_LABELS } from "@/lib/keys/status";

const ENVIRONMENTS = [
  ["all", "All"],
  ["dev", "Development"],
  ["prod", "Production"],
] as const;
const STATUSES: [string, string][] = [
  ["any", "Any status"],
  ...KEY_STATUSES.map((status): [string, string] => [status, KEY_STATUS_LABELS[status]]),
];

export interface KeyFilterValues {
  env: string | undefined;
  status: string | undefined;
  inactive: boolean;
  q: string | undefined;
}

/** How long typing may pause before the list follows the search. */
const SEARCH_PAUSE_MS = 300;

/**
 * The list's search and filters, applied as soon as one changes (the search
 * once typing pauses, or on Enter), kept in the address so a reload keeps
 * them. Without JavaScript the form is a plain GET with an Apply button.
 */
export function KeyFilters({
  values,
  searchError: refused,
}: {
  values: KeyFilterValues;
  searchError?: string | undefined;
}) {
  const base = teamPath(useTeam().slug);
  const [searchError, setSearchError] = useState<string | undefined>(refused);
  const pause = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(pause.current), []);
  const { formRef, apply } = useFilterForm(base, (name, value) => {
    if (name === "q") {
      if (looksLikeWholeKey(value)) {
        setSearchError(WHOLE_KEY_IN_SEARCH);
        return false;
      }
      setSearchError(undefined);
    }
    return value === "" || value === "all" || value === "any" ? null : value;
  });

  return (
    <form
      ref={formRef}
      method="get"
      action={base}
      className="flex flex-wrap items-end gap-3"
      aria-label="Search and filter keys"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        clearTimeout(pause.current);
        apply();
      }}
    >
      <Input
        label="Search"
        name="q"
        type="search"
        defaultValue={values.q ?? ""}
        placeholder="Label, key id or sk_…"
        autoComplete="off"
        spellCheck={false}
        error={searchError}
        onChange={() => {
          clearTimeout(pause.current);
          pause.current = setTimeout(apply, SEARCH_PAUSE_MS);
        }}
        className="w-64 max-w-full"
      />
      <Select
        label="Environment"
        name="env"
        defaultValue={values.env ?? "all"}
        onValueChange={apply}
        options={ENVIRONMENTS}
        className="min-w-36"
      />
      <Select
        label="Status"
        name="status"
        defaultValue={values.status ?? "any"}
        onValueChange={apply}
        options={STATUSES}
        className="min-w-44"
      />
      <label className="flex min-h-10 items-center gap-2 text-sm">
        <input type="checkbox" name="inactive" value="1" defaultChecked={values.inactive} onChange={apply} />
        Show revoked and expired
      </label>
      <noscript>
        <Button type="submit" variant="secondary">
          Apply
        </Button>
      </noscript>
    </form>
  );
}
