"use client";

import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { STATUS_CLASSES, type StatusClass } from "@/lib/usage/event";
import { cn } from "@/components/ui/cn";
import { STATUS_CLASS_LABELS, STATUS_TEXT_COLORS } from "./status-colors";

export interface ChartBucket extends Record<StatusClass, number> {
  /** For the axis: "17:00", "22 Nov". */
  short: string;
  /** For the tooltip: "22 Nov, 17:00–18:00 UTC". */
  full: string;
}

// The stacked bars. Hidden from assistive technology, which reads the same
// numbers from the data table beside it; so no keyboard layer either (a
// focusable element inside aria-hidden would be a trap). Colours come from
// currentColor and the page's text colour, so dark mode needs no second chart.
export function UsageChart({ buckets }: { buckets: ChartBucket[] }) {
  return (
    <div aria-hidden="true" className="text-zinc-600 dark:text-zinc-400" data-testid="usage-chart">
      <BarChart
        responsive
        accessibilityLayer={false}
        data={buckets}
        margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
        style={{ width: "100%", height: 220 }}
      >
        <CartesianGrid vertical={false} stroke="currentColor" strokeOpacity={0.2} />
        <XAxis
          dataKey="short"
          tick={{ fill: "currentColor", fontSize: 12 }}
          stroke="currentColor"
          strokeOpacity={0.4}
          tickLine={false}
          minTickGap={12}
        />
        <YAxis
          allowDecimals={false}
          width={40}
          tick={{ fill: "currentColor", fontSize: 12 }}
          axisLine={false}
          tickLine={false}
        />
        <Tooltip
          content={ChartTooltip}
          cursor={{ fill: "currentColor", fillOpacity: 0.08 }}
          isAnimationActive={false}
        />
        {STATUS_CLASSES.map((statusClass) => (
          <Bar
            key={statusClass}
            dataKey={statusClass}
            stackId="requests"
            fill="currentColor"
            className={STATUS_TEXT_COLORS[statusClass]}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </div>
  );
}

function ChartTooltip({ active, payload }: TooltipContentProps) {
  const bucket = payload?.[0]?.payload as ChartBucket | undefined;
  if (!active || !bucket) return null;
  return (
    <div className="rounded-md border border-zinc-200 bg-white p-2 text-xs text-zinc-900 shadow-md dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100">
      <p className="font-semibold">{bucket.full}</p>
      <ul className="mt-1">
        {STATUS_CLASSES.map((statusClass) => (
          <li key={statusClass} className="flex items-center gap-2">
            <span className={cn("inline-block size-2 rounded-sm bg-current", STATUS_TEXT_COLORS[statusClass])} />
            {STATUS_CLASS_LABELS[statusClass]}: {bucket[statusClass]}
          </li>
        ))}
      </ul>
    </div>
  );
}
