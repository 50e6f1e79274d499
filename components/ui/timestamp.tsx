import { absoluteTime, relativeTime } from "@/lib/format-time";
import { cn } from "./cn";

/**
 * The app's one way to show a moment: the absolute time in UTC, with the
 * relative time beside it ("22 Nov 2026, 17:20 UTC · 5 minutes ago").
 * `compact` puts the relative time first, for narrow list cells.
 */
export function Timestamp({
  date,
  now = new Date(),
  compact = false,
  prefix,
  className,
}: {
  date: Date;
  now?: Date;
  compact?: boolean;
  /** A word before the relative time: "Expires in 3 days". */
  prefix?: string;
  className?: string;
}) {
  const absolute = absoluteTime(date);
  const relative = relativeTime(date, now);
  if (compact) {
    return (
      <time dateTime={date.toISOString()} className={cn("flex flex-col", className)}>
        <span>{prefix ? `${prefix} ${relative}` : relative}</span>
        <span className="text-xs text-zinc-600 dark:text-zinc-400">{absolute}</span>
      </time>
    );
  }
  return (
    <time dateTime={date.toISOString()} className={className}>
      {prefix ? `${prefix} ` : ""}
      {absolute} <span className="text-zinc-600 dark:text-zinc-400">· {relative}</span>
    </time>
  );
}
