"use client";

import { useTeam } from "@/components/teams/team-context";
import { teamPath } from "@/lib/web/team-paths";
import { useRouter } from "next/navigation";
import { useRef } from "react";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
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
}

/**
 * The list's filters, applied as soon as one changes. Without JavaScript the
 * form is a plain GET with an Apply button.
 */
export function KeyFilters({ values }: { values: KeyFilterValues }) {
  const router = useRouter();
  const base = teamPath(useTeam().slug);
  const formRef = useRef<HTMLFormElement>(null);

  // Read the form after React has committed the change (a select's hidden input too).
  const apply = () =>
    requestAnimationFrame(() => {
      const form = formRef.current;
      if (!form) return;
      const params = new URLSearchParams();
      for (const [name, value] of new FormData(form)) {
        if (typeof value === "string" && value !== "" && value !== "all" && value !== "any") params.set(name, value);
      }
      const query = params.toString();
      router.replace(query ? `${base}?${query}` : base, { scroll: false });
    });

  return (
    <form ref={formRef} method="get" action={base} className="flex flex-wrap items-end gap-3" aria-label="Filter keys">
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
