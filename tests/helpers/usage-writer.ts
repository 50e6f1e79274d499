import type { UsageEvent } from "@/lib/usage/event";
import { runtime } from "@/lib/runtime/runtime";

/** Writes usage as the gate's buffer does: through the app's writer for this database (lib/usage/usage-sink.ts). */
export function writeUsage(events: UsageEvent[]): Promise<void> {
  return runtime().usageWriter.write(events);
}
