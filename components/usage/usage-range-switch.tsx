import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { RANGE_SPECS, USAGE_RANGES, type UsageRange } from "@/lib/usage/usage-range";
import { usageHref, type UsageQuery } from "./usage-href";

/** The range as links (they work without JavaScript); the current one is marked for assistive technology too. */
export function UsageRangeSwitch({ keyHref, query }: { keyHref: string; query: UsageQuery }) {
  return (
    <nav aria-label="Usage range">
      <ul className="inline-flex overflow-hidden rounded-md border border-zinc-300 text-sm dark:border-zinc-700">
        {USAGE_RANGES.map((range: UsageRange) => {
          const current = range === query.usage;
          return (
            <li key={range} className="border-zinc-300 not-first:border-l dark:border-zinc-700">
              <Link
                href={usageHref(keyHref, { ...query, usage: range, page: undefined }, "usage")}
                aria-current={current ? "page" : undefined}
                scroll={false}
                className={cn(
                  "inline-flex min-h-10 min-w-12 items-center justify-center px-3 no-underline hover:no-underline",
                  current
                    ? "bg-zinc-900 font-semibold text-white dark:bg-zinc-100 dark:text-zinc-900"
                    : "text-zinc-800 hover:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-zinc-800",
                )}
              >
                {RANGE_SPECS[range].short}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
