import { describe, expect, it } from "vitest";
import { relativeTime } from "@/lib/format-time";

const now = new Date("2026-11-22T12:00:00Z");
const at = (ms: number) => new Date(now.getTime() + ms);
const MIN = 60_000;

describe("relativeTime", () => {
  it.each([
    [0, "now"],
    [20_000, "now"],
    [45_000, "in 1 minute"],
    [5 * MIN, "in 5 minutes"],
    [-5 * MIN, "5 minutes ago"],
    [60 * MIN - 1000, "in 1 hour"],
    [45 * MIN, "in 45 minutes"],
    [24 * 60 * MIN - 1000, "tomorrow"],
    [90 * 24 * 60 * MIN, "in 90 days"],
  ])("%i ms reads %s", (ms, text) => expect(relativeTime(at(ms), now)).toBe(text));
});
