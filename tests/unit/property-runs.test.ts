import { describe, expect, it } from "vitest";
import { propertyRuns } from "../helpers/property-runs";

describe("property runs", () => {
  it("keeps the full count in CI and runs a tenth elsewhere", () => {
    expect(propertyRuns(10_000, { CI: "true" })).toBe(10_000);
    expect(propertyRuns(10_000, {})).toBe(1_000);
    expect(propertyRuns(60, {})).toBe(6);
  });

  it("follows KEYPORT_PROPERTY_SCALE either way, never below one case", () => {
    expect(propertyRuns(400, { CI: "true", KEYPORT_PROPERTY_SCALE: "0.5" })).toBe(200);
    expect(propertyRuns(400, { KEYPORT_PROPERTY_SCALE: "1" })).toBe(400);
    expect(propertyRuns(60, { KEYPORT_PROPERTY_SCALE: "0.001" })).toBe(1);
    expect(propertyRuns(400, { KEYPORT_PROPERTY_SCALE: "nonsense" })).toBe(40);
  });
});
