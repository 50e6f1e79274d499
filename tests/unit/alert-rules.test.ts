// The alert rules an operator loads (ops/prometheus/keyport-alerts.yml) name
// only metrics Keyport registers: a renamed metric would otherwise leave an
// alert that can never fire. (CI also checks the file with promtool.)
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadMetrics, NO_SOURCES } from "@/lib/metrics/registry";

const RULES = path.join(process.cwd(), "ops", "prometheus", "keyport-alerts.yml");

/** The metric names in the rules' expressions (ours and Node's: keyport_*, nodejs_*, process_*). */
function namedMetrics(text: string): Set<string> {
  const expressions = [...text.matchAll(/expr: (\|\n(?:\s{10,}.*\n)+|.*)/g)].map((match) => match[1]!);
  expect(expressions.length, "the rules' expressions were found").toBeGreaterThan(5);
  return new Set(
    expressions.flatMap((expr) => [...expr.matchAll(/\b(?:keyport|nodejs|process)_[a-z0-9_]+/g)].map((m) => m[0])),
  );
}

/** Every series name the registry exposes: a histogram's too (_bucket, _sum, _count). */
async function registeredSeries(): Promise<Set<string>> {
  const metrics = await loadMetrics(NO_SOURCES);
  const names = new Set<string>();
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === "histogram")
      for (const suffix of ["_bucket", "_sum", "_count"]) names.add(metric.name + suffix);
  }
  return names;
}

describe("the alert rules", () => {
  it("name only registered metrics", async () => {
    const named = namedMetrics(readFileSync(RULES, "utf8"));
    const registered = await registeredSeries();
    // The control: the check reads names from both sides (a rule on the gate's requests, a histogram's buckets).
    expect(named).toContain("keyport_api_requests_total");
    expect(registered).toContain("keyport_api_request_duration_seconds_bucket");
    expect([...named].filter((name) => !registered.has(name))).toEqual([]);
  });

  it("would catch a metric that does not exist", async () => {
    const named = namedMetrics(
      "      - alert: X\n        expr: rate(keyport_no_such_metric_total[5m]) > 0\n".repeat(6),
    );
    const registered = await registeredSeries();
    expect([...named].filter((name) => !registered.has(name))).toEqual(["keyport_no_such_metric_total"]);
  });
});
