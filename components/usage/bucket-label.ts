// The chart's bucket names, in UTC like every time in the app: a short one for
// the axis and a full one for the data table.

const dayShort = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const dayFull = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const hour = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" });

export function bucketLabels(start: Date, bucket: "hour" | "day"): { short: string; full: string } {
  if (bucket === "day") return { short: dayShort.format(start), full: dayFull.format(start) };
  const end = new Date(start.getTime() + 3_600_000);
  return {
    short: hour.format(start),
    full: `${dayShort.format(start)}, ${hour.format(start)}–${hour.format(end)} UTC`,
  };
}
