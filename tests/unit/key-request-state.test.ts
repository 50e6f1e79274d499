// Where a request for a production key stands, read from its status and times
// (lib/keys/key-request-state.ts): no job marks a request expired, so these
// edges are what every page, the CLI and each check see.
import { describe, expect, it } from "vitest";
import { keyRequestState } from "@/lib/keys/key-request-state";

const DAY = 86_400_000;
const made = new Date("2026-11-01T12:00:00Z");
const at = (days: number) => new Date(made.getTime() + days * DAY);

describe("keyRequestState", () => {
  it("a pending request waits 7 days for a decision, to the millisecond", () => {
    const row = { status: "pending", createdAt: made, decidedAt: null };
    expect(keyRequestState(row, at(7 - 1 / DAY))).toBe("pending");
    expect(keyRequestState(row, at(7))).toBe("expired");
  });

  it("an approved request can be revealed for 7 days from the approval, not from the asking", () => {
    const row = { status: "approved", createdAt: made, decidedAt: at(6) };
    expect(keyRequestState(row, at(12))).toBe("approved");
    expect(keyRequestState(row, at(13))).toBe("expired");
  });

  it("denied and revealed stay so; an unknown status is a fault, never a permission", () => {
    expect(keyRequestState({ status: "denied", createdAt: made, decidedAt: at(1) }, at(100))).toBe("denied");
    expect(keyRequestState({ status: "revealed", createdAt: made, decidedAt: at(1) }, at(100))).toBe("revealed");
    expect(() => keyRequestState({ status: "approved-ish", createdAt: made, decidedAt: at(1) }, at(2))).toThrow();
  });
});
