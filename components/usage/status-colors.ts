import type { StatusClass } from "@/lib/usage/event";

// One colour per status class, for the chart's bars (through currentColor),
// its legend and the log's badges: darker in light mode, lighter in dark mode.
export const STATUS_TEXT_COLORS: Record<StatusClass, string> = {
  "2xx": "text-emerald-600 dark:text-emerald-400",
  "4xx": "text-amber-500 dark:text-amber-300",
  "5xx": "text-red-600 dark:text-red-400",
};

export const STATUS_CLASS_LABELS: Record<StatusClass, string> = {
  "2xx": "2xx success",
  "4xx": "4xx client error",
  "5xx": "5xx server error",
};
