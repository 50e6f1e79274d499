import { buttonClasses } from "@/components/ui/button";
import { controlClasses } from "@/components/ui/field";
import { publicRoutes } from "@/lib/public-api/routes";
import { STATUS_CLASSES } from "@/lib/usage/event";
import { DEFAULT_USAGE_RANGE } from "@/lib/usage/usage-range";
import { STATUS_CLASS_LABELS } from "./status-colors";
import type { UsageQuery } from "./usage-href";

// The log's filters as a plain GET form with native selects: it works the same
// with or without JavaScript (a Radix select needs it), and keeps the range.
export function RequestLogFilters({ keyHref, query }: { keyHref: string; query: UsageQuery }) {
  return (
    <form
      method="get"
      action={`${keyHref}#requests`}
      aria-label="Filter requests"
      className="flex flex-wrap items-end gap-3"
    >
      {query.usage !== DEFAULT_USAGE_RANGE && <input type="hidden" name="usage" value={query.usage} />}
      <label className="flex flex-col gap-1 text-sm font-medium">
        Status
        <select name="status" defaultValue={query.status ?? ""} className={controlClasses(undefined, "font-normal")}>
          <option value="">Any status</option>
          {STATUS_CLASSES.map((statusClass) => (
            <option key={statusClass} value={statusClass}>
              {STATUS_CLASS_LABELS[statusClass]}
            </option>
          ))}
        </select>
      </label>
      <label className="flex min-w-0 flex-col gap-1 text-sm font-medium">
        Route
        <select
          name="route"
          defaultValue={query.route ?? ""}
          className={controlClasses(undefined, "max-w-full font-normal")}
        >
          <option value="">Any route</option>
          {publicRoutes.map((route) => (
            <option key={route.name} value={route.name}>
              {route.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={buttonClasses("secondary")}>
        Filter
      </button>
    </form>
  );
}
