import { describe, expect, it } from "vitest";
import { displayIp } from "@/lib/format-ip";
import { absoluteTime, relativeTime } from "@/lib/format-time";

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

describe("absoluteTime", () => {
  it("is one format, in UTC, whatever the server's zone", () => {
    expect(absoluteTime(new Date("2026-11-22T17:20:59Z"))).toBe("22 Nov 2026, 17:20 UTC");
    expect(absoluteTime(new Date("2026-01-03T00:05:00Z"))).toBe("3 Jan 2026, 00:05 UTC");
  });
});

describe("displayIp", () => {
  it.each([
    ["::ffff:127.0.0.1", "127.0.0.1"],
    ["::FFFF:203.0.113.7", "203.0.113.7"],
    ["203.0.113.7", "203.0.113.7"],
    ["2001:db8::1", "2001:db8::1"],
    ["::ffff:0:7f00:1", "::ffff:0:7f00:1"],
    [null, "unknown"],
  ])("%s reads %s", (ip, text) => expect(displayIp(ip)).toBe(text));
});
