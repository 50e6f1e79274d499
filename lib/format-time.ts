const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "in 3 hours", "5 minutes ago", "now". */
export function relativeTime(date: Date, now = new Date()): string {
  const diff = date.getTime() - now.getTime();
  for (const [unit, size] of UNITS) {
    const amount = Math.round(diff / size);
    // Days and hours only when (nearly) a whole one has passed: 45 minutes stays minutes.
    if (Math.abs(amount) >= 1 && (unit === "minute" || Math.abs(diff) >= size * 0.99)) {
      return relative.format(amount, unit);
    }
  }
  return "now";
}

/** "22 Nov 2026, 17:20 UTC" */
export function absoluteTime(date: Date): string {
  return `${date.toLocaleString("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC" })} UTC`;
}
