import { cn } from "@/components/ui/cn";
import { STATUS_CLASSES } from "@/lib/usage/event";
import { STATUS_CLASS_LABELS, STATUS_TEXT_COLORS } from "./status-colors";

/** The colour key under the chart (the data table names the classes for screen readers). */
export function UsageLegend() {
  return (
    <ul aria-hidden="true" className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs">
      {STATUS_CLASSES.map((statusClass) => (
        <li key={statusClass} className="flex items-center gap-1.5">
          <span className={cn("inline-block size-3 rounded-sm bg-current", STATUS_TEXT_COLORS[statusClass])} />
          {STATUS_CLASS_LABELS[statusClass]}
        </li>
      ))}
    </ul>
  );
}
