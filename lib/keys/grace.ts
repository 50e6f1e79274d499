import { z } from "zod";

// Rotation's grace periods: how long the old key keeps working. The dialog,
// the validation and the message after a rotation all read this list.

const HOUR = 60 * 60 * 1000;

export const GRACE_OPTIONS = [
  { value: "now", label: "Immediately", ms: 0 },
  { value: "1h", label: "In 1 hour", ms: HOUR },
  { value: "24h", label: "In 24 hours", ms: 24 * HOUR },
  { value: "7d", label: "In 7 days", ms: 7 * 24 * HOUR },
] as const;

export type GracePeriod = (typeof GRACE_OPTIONS)[number]["value"];

export const DEFAULT_GRACE: GracePeriod = "24h";

export const GRACE_PERIODS = Object.fromEntries(GRACE_OPTIONS.map((option) => [option.value, option.ms])) as Record<
  GracePeriod,
  number
>;

export const gracePeriodSchema = z.enum(
  GRACE_OPTIONS.map((option) => option.value) as [GracePeriod, ...GracePeriod[]],
  {
    error: "Choose when the old key stops working.",
  },
);

/** What the user must do next, in words that match the choice they made. */
export function rotationOutcome(oldKeyStopsAt: Date, now: Date, stopsAtText: string): string {
  if (oldKeyStopsAt.getTime() <= now.getTime()) {
    return "The old key stopped working just now. Deploy the new key at once: requests with the old one are refused.";
  }
  return `The old key keeps working until ${stopsAtText}. Deploy the new key before then.`;
}
