// The gate's counts (lib/metrics/gate-metrics.ts), as Prometheus reads them:
// a latency on a bucket's bound counts in that bucket (le is "less than or
// equal"), one past the last bound only in +Inf; classes and codes add up.
import { describe, expect, it } from "vitest";
import { loadMetrics, NO_SOURCES } from "@/lib/metrics/registry";
import { parseMetrics, sampleValue } from "../helpers/prometheus-text";

describe("the gate's counts", () => {
  it("put each answer in its bucket, class and code", async () => {
    const metrics = await loadMetrics(NO_SOURCES);
    metrics.gate.request("list_models", 200, 0.0001, undefined);
    metrics.gate.request("list_models", 200, 0.0002, undefined);
    metrics.gate.request("list_models", 429, 12, "rate_limited");
    metrics.gate.request(null, 404, 0.00005, "not_found");
    const samples = parseMetrics(await metrics.registry.metrics());
    const bucket = (route: string, le: string) =>
      sampleValue(samples, "keyport_api_request_duration_seconds_bucket", { route, le });
    expect(bucket("list_models", "0.0001")).toBe(1);
    expect(bucket("list_models", "0.00025")).toBe(2);
    expect(bucket("list_models", "10")).toBe(2);
    expect(bucket("list_models", "+Inf")).toBe(3);
    expect(sampleValue(samples, "keyport_api_request_duration_seconds_count", { route: "list_models" })).toBe(3);
    expect(sampleValue(samples, "keyport_api_request_duration_seconds_sum", { route: "list_models" })).toBeCloseTo(
      12.0003,
    );
    expect(bucket("unknown", "0.0001")).toBe(1);
    const requests = (route: string, statusClass: string) =>
      sampleValue(samples, "keyport_api_requests_total", { route, status_class: statusClass });
    expect(requests("list_models", "2xx")).toBe(2);
    expect(requests("list_models", "4xx")).toBe(1);
    expect(requests("unknown", "4xx")).toBe(1);
    expect(requests("list_models", "5xx")).toBeUndefined();
    expect(sampleValue(samples, "keyport_api_refusals_total", { code: "rate_limited" })).toBe(1);
    expect(sampleValue(samples, "keyport_api_refusals_total", { code: "not_found" })).toBe(1);
  });
});
