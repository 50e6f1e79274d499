"use client";

import { useFilterForm } from "@/components/forms/use-filter-form";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";

/**
 * The activity page's filters (a kind of event, a key), applied as soon as one
 * changes and kept in the address. Without JavaScript the form is a plain GET
 * with an Apply button.
 */
export function ActivityFilters({
  base,
  kinds,
  keys,
  values,
}: {
  base: string;
  /** [value, text] of each kind of event. */
  kinds: readonly (readonly [string, string])[];
  /** [id, text] of each of the team's keys. */
  keys: readonly (readonly [string, string])[];
  values: { kind: string | undefined; key: string | undefined };
}) {
  const { formRef, apply } = useFilterForm(base, (_name, value) => (value === "all" ? null : value));
  return (
    <form
      ref={formRef}
      method="get"
      action={base}
      className="flex flex-wrap items-end gap-3"
      aria-label="Filter the activity"
    >
      <Select
        label="Kind"
        name="kind"
        defaultValue={values.kind ?? "all"}
        onValueChange={apply}
        options={[["all", "All kinds"], ...kinds]}
        className="min-w-48"
      />
      <Select
        label="Key"
        name="key"
        defaultValue={values.key ?? "all"}
        onValueChange={apply}
        options={[["all", "All keys and the team"], ...keys]}
        className="max-w-full min-w-48 sm:max-w-md"
      />
      <noscript>
        <Button type="submit" variant="secondary">
          Apply
        </Button>
      </noscript>
    </form>
  );
}
