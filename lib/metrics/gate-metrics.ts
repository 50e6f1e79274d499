// What the gate records per request: one call, at its end, into plain
// numbers kept here; prom-client reads them only when Prometheus scrapes
// (lib/metrics/registry.ts). Calling prom-client per request cost more than
// its in-process figure suggested: a series child validates, hashes and
// allocates on every inc() and observe(), and the saturation pair of metrics
// on against off measured a median of 0.85 (docs/benchmark.md, 2026-11-28).
// The label values are fixed sets (the registry's route names or "unknown",
// a status class, a catalog code), so a client sending random paths or keys
// cannot add series.

export interface GateMetrics {
  /** `route`: the registry's name of the route, null when the path or method named none. */
  request(route: string | null, status: number, seconds: number, errorCode: string | undefined): void;
}

/**
 * Latency buckets, in seconds: fine below a millisecond (the gate answers a
 * cached key in about 100 to 400 µs on 2 cores), coarse past it, up to the
 * slowest handler (a generation's stream).
 */
export const LATENCY_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

export const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;

/** One route's answers so far. */
export interface RouteCounts {
  /** By status class: index 0 for 1xx ... 4 for 5xx. */
  readonly byClass: Float64Array;
  /** Answers per latency bucket, not cumulative: index i counts those above bound i-1 and up to bound i. */
  readonly inBucket: Float64Array;
  seconds: number;
  count: number;
}

/** The gate's recorder, and what it has counted so far, for the scrape. */
export interface GateCounts extends GateMetrics {
  readonly routes: ReadonlyMap<string, RouteCounts>;
  readonly refusals: ReadonlyMap<string, number>;
}

export function gateCounts(): GateCounts {
  const routes = new Map<string, RouteCounts>();
  const refusals = new Map<string, number>();
  const bounds = LATENCY_BUCKETS.length;
  return {
    routes,
    refusals,
    request(route, status, seconds, errorCode) {
      const name = route ?? "unknown";
      let counts = routes.get(name);
      if (!counts) {
        counts = { byClass: new Float64Array(5), inBucket: new Float64Array(bounds), seconds: 0, count: 0 };
        routes.set(name, counts);
      }
      counts.byClass[Math.min(4, Math.max(0, Math.floor(status / 100) - 1))]! += 1;
      let bucket = 0;
      while (bucket < bounds && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
      // Past the last bound an answer counts only in +Inf, which is the count.
      if (bucket < bounds) counts.inBucket[bucket]! += 1;
      counts.seconds += seconds;
      counts.count++;
      if (errorCode !== undefined) refusals.set(errorCode, (refusals.get(errorCode) ?? 0) + 1);
    },
  };
}
