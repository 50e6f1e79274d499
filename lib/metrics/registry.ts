import "server-only";
import type { Registry } from "prom-client";
import type { KeyCacheStats } from "../keys/key-cache";
import type { FenceResult } from "../instances/fence";
import { log } from "../log";
import type { MailJobResult } from "../mail/mail-job";
import type { PruneCounts } from "../maintenance/prune";
import type { StoreRoundTrips } from "../public-api/rate-limit";
import type { UsageStats } from "../usage/buffer";
import type { Backlog } from "./backlog";
import { gateCounts, LATENCY_BUCKETS, STATUS_CLASSES, type GateMetrics } from "./gate-metrics";

// The process's Prometheus metrics (docs/operations.md, "Metrics"), made by
// the runtime when METRICS_PORT is set and served by lib/metrics/listener.ts.
// Two kinds: what is counted as it happens (the gate's requests, the mail
// job's sends, pruning, fences raised here), through the recorders below; and
// what the parts already keep (the key cache's hits, the usage buffer, the
// rate-limit store's round trips, the listener's acknowledgements, the pools,
// the shared queues), read only when Prometheus scrapes, so it costs the
// request path nothing.

/** What the runtime's parts keep, read at each scrape; null where the part was never made or does not exist here. */
export interface MetricSources {
  keyCache(): KeyCacheStats | null;
  rateLimits(): StoreRoundTrips | null;
  usage(): UsageStats | null;
  instance(): { acknowledged: number; leaseLosses: number } | null;
  pools(): { pool: "orm" | "gate"; total: number; idle: number; waiting: number }[];
  backlog(): Promise<Backlog>;
}

export interface Metrics {
  readonly registry: Registry;
  readonly gate: GateMetrics;
  mailRun(result: MailJobResult): void;
  pruned(counts: PruneCounts): void;
  fenceRaised(result: FenceResult): void;
}

/** A metric's series at a scrape: each one's labels and value. */
type Rows<L extends string> = [Record<L, string>, number][];

/** Sources that read nothing: for tests and the benchmark, which exercise the recorders alone. */
export const NO_SOURCES: MetricSources = {
  keyCache: () => null,
  rateLimits: () => null,
  usage: () => null,
  instance: () => null,
  pools: () => [],
  backlog: () => Promise.reject(new Error("no database here")),
};

/** How long a scrape waits for the shared queues' counts before it answers without them. */
const BACKLOG_TIMEOUT_MS = 1_000;

type PromClient = typeof import("prom-client");

/**
 * The metrics, with prom-client loaded now: only a process with METRICS_PORT loads it (it loads
 * `@opentelemetry/api` in turn, which a process without tracing must not: lib/tracing). A static import would be
 * hoisted to the top of the gate's bundle and load in every process.
 */
export async function loadMetrics(sources: MetricSources): Promise<Metrics> {
  return createMetrics(await import("prom-client"), sources);
}

function createMetrics(prom: PromClient, sources: MetricSources): Metrics {
  const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } = prom;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  // The gate's answers: counted in plain numbers as they happen (lib/metrics/gate-metrics.ts), handed over here.
  const gate = gateCounts();
  new Counter({
    name: "keyport_api_requests_total",
    help: "Public API requests answered, by route (the registry's name, or unknown) and status class.",
    labelNames: ["route", "status_class"] as const,
    registers,
    collect() {
      this.reset();
      for (const [route, counts] of gate.routes) {
        STATUS_CLASSES.forEach((statusClass, i) => {
          if (counts.byClass[i]) this.inc({ route, status_class: statusClass }, counts.byClass[i]);
        });
      }
    },
  });
  new Counter({
    name: "keyport_api_refusals_total",
    help: "Public API error answers, by the error catalog's code.",
    labelNames: ["code"] as const,
    registers,
    collect() {
      this.reset();
      for (const [code, count] of gate.refusals) this.inc({ code }, count);
    },
  });
  // The latency histogram, written from the counts: prom-client has no way to set a histogram's buckets, so this
  // one answers the registry's read itself (getForPromString, which its get() reads too), in the same shape.
  const LATENCY = "keyport_api_request_duration_seconds";
  const LATENCY_HELP = "Time from a public API request's arrival to its answer, by route.";
  const Latency = class extends Histogram<"route"> {
    async getForPromString() {
      const values: { metricName: string; labels: Record<string, string | number>; value: number }[] = [];
      for (const [route, counts] of gate.routes) {
        let cumulative = 0;
        LATENCY_BUCKETS.forEach((le, i) => {
          cumulative += counts.inBucket[i]!;
          values.push({ metricName: `${LATENCY}_bucket`, labels: { le, route }, value: cumulative });
        });
        values.push({ metricName: `${LATENCY}_bucket`, labels: { le: "+Inf", route }, value: counts.count });
        values.push({ metricName: `${LATENCY}_sum`, labels: { route }, value: counts.seconds });
        values.push({ metricName: `${LATENCY}_count`, labels: { route }, value: counts.count });
      }
      return { name: LATENCY, help: LATENCY_HELP, type: "histogram", values, aggregator: "sum" };
    }
  };
  new Latency({
    name: LATENCY,
    help: LATENCY_HELP,
    labelNames: ["route"] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });

  // Totals the parts keep, set at each scrape (a counter that only ever moves forward, as Prometheus expects).
  const pulled = <L extends string>(name: string, help: string, labelNames: L[], read: () => Rows<L>) =>
    new Counter({
      name,
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        for (const [labels, value] of read()) this.inc(labels as never, value);
      },
    });
  // Levels the parts keep (or the database, for the shared queues: a read that may wait), set at each scrape.
  const level = <L extends string>(
    name: string,
    help: string,
    labelNames: L[],
    read: () => Rows<L> | Promise<Rows<L>>,
  ) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers,
      async collect() {
        const rows = await read();
        this.reset();
        for (const [labels, value] of rows) this.set(labels as never, value);
      },
    });

  pulled(
    "keyport_key_cache_lookups_total",
    "Key lookups by this instance's key cache: hit or miss.",
    ["result"],
    () => {
      const stats = sources.keyCache();
      return stats
        ? [
            [{ result: "hit" }, stats.hits],
            [{ result: "miss" }, stats.misses],
          ]
        : [];
    },
  );
  pulled(
    "keyport_rate_limit_store_round_trips_total",
    "Round trips to the shared rate-limit store (one per batch of a turn's requests).",
    ["store"],
    () => {
      const trips = sources.rateLimits();
      return trips ? [[{ store: trips.store }, trips.total]] : [];
    },
  );
  pulled(
    "keyport_rate_limit_store_errors_total",
    "Round trips to the shared rate-limit store that failed.",
    ["store"],
    () => {
      const trips = sources.rateLimits();
      return trips ? [[{ store: trips.store }, trips.failed]] : [];
    },
  );
  pulled(
    "keyport_fence_acknowledgements_total",
    "Revocation fences this instance acknowledged (after applying every change before them).",
    [],
    () => {
      const stats = sources.instance();
      return stats ? [[{}, stats.acknowledged]] : [];
    },
  );
  pulled(
    "keyport_instance_lease_losses_total",
    "Times this instance lost its change listener's connection, and with it its lease (its cache reads versions until it is back).",
    [],
    () => {
      const stats = sources.instance();
      return stats ? [[{}, stats.leaseLosses]] : [];
    },
  );
  level("keyport_usage_buffer_depth", "Requests whose usage events wait in this instance's buffer.", [], () => {
    const stats = sources.usage();
    return stats ? [[{}, stats.pending]] : [];
  });
  pulled("keyport_usage_events_written_total", "Requests whose usage was written to the database.", [], () => {
    const stats = sources.usage();
    return stats ? [[{}, stats.written]] : [];
  });
  pulled(
    "keyport_usage_events_dropped_total",
    "Requests whose usage was dropped: the buffer was full (buffer_full) or its batch's write failed (write_failed).",
    ["reason"],
    () => {
      const stats = sources.usage();
      return stats
        ? [
            [{ reason: "buffer_full" }, stats.droppedFull],
            [{ reason: "write_failed" }, stats.droppedWriteFailed],
          ]
        : [];
    },
  );
  level(
    "keyport_db_pool_clients",
    "PostgreSQL pools' connections in use and idle, and queries waiting for one (pool: orm or gate).",
    ["pool", "state"],
    () =>
      sources.pools().flatMap(({ pool, total, idle, waiting }) => [
        [{ pool, state: "in_use" }, total - idle],
        [{ pool, state: "idle" }, idle],
        [{ pool, state: "waiting" }, waiting],
      ]),
  );

  // The shared queues: one read per scrape (prom-client collects every metric at once), shared by these gauges. A read
  // that fails (the database away) leaves them at their last values rather than at 0, which would clear a backlog's
  // alert during an outage; keyport_backlog_read_ok says whether they are current.
  let reading: Promise<Backlog | null> | undefined;
  let lastRead: Backlog | null = null;
  const backlog = () =>
    (reading ??= withTimeout(sources.backlog(), BACKLOG_TIMEOUT_MS)
      .then((found) => {
        readOk.set(found ? 1 : 0);
        if (found) lastRead = found;
        return lastRead;
      })
      .finally(() => {
        reading = undefined;
      }));
  const readOk = new Gauge({
    name: "keyport_backlog_read_ok",
    help: "1 when this scrape read the shared queues (mail, generations) from the database; 0 when their gauges keep the last values read.",
    registers,
    async collect() {
      await backlog();
    },
  });
  /** A gauge of the shared queues: none until a read has succeeded, then the last values read. */
  const queued = <L extends string>(name: string, help: string, labelNames: L[], read: (b: Backlog) => Rows<L>) =>
    level(name, help, labelNames, async () => {
      const found = await backlog();
      return found ? read(found) : [];
    });
  queued("keyport_mail_outbox_queued", "Mail waiting to be sent (all instances).", [], (b) => [[{}, b.mail.queued]]);
  queued("keyport_mail_outbox_failed", "Mail given up on: the SMTP server refused it (all instances).", [], (b) => [
    [{}, b.mail.failed],
  ]);
  queued(
    "keyport_mail_outbox_oldest_age_seconds",
    "Age of the oldest mail waiting to be sent; 0 when none waits.",
    [],
    (b) => [[{}, b.mail.oldestQueuedSeconds]],
  );
  queued(
    "keyport_generations",
    "Generation jobs by status: queued, running, failed (all instances).",
    ["status"],
    (b) => (["queued", "running", "failed"] as const).map((status) => [{ status }, b.generations[status]]),
  );

  const mailSent = new Counter({ name: "keyport_mail_sent_total", help: "Mail this instance sent.", registers });
  const mailFailed = new Counter({
    name: "keyport_mail_send_failures_total",
    help: "Sends this instance tried that failed (retried later when the server was not reached).",
    registers,
  });
  const prunedRows = new Counter({
    name: "keyport_maintenance_rows_pruned_total",
    help: "Rows pruned by this instance's maintenance, by table.",
    labelNames: ["table"] as const,
    registers,
  });
  const fences = new Counter({
    name: "keyport_fences_raised_total",
    help: "Fences raised here after a change.",
    registers,
  });
  const unconfirmed = new Counter({
    name: "keyport_fence_unconfirmed_instances_total",
    help: "Instances that did not acknowledge a fence raised here (their leases lapsed instead).",
    registers,
  });

  return {
    registry,
    gate,
    mailRun(result) {
      mailSent.inc(result.sent);
      mailFailed.inc(result.failed);
    },
    pruned(counts) {
      for (const [table, rows] of Object.entries(counts)) prunedRows.inc({ table }, rows);
    },
    fenceRaised(result) {
      fences.inc();
      unconfirmed.inc(result.total - result.confirmed);
    },
  };
}

/** The work's answer, or null (logged) when it fails or takes longer than `ms`: a scrape still answers. */
async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    const answer = await Promise.race([work, late]);
    if (answer === null) log.warn("metrics.backlog_unavailable", { reason: `no answer in ${ms} ms` });
    return answer;
  } catch (error) {
    log.warn("metrics.backlog_unavailable", { reason: String((error as Error)?.message) });
    return null;
  } finally {
    clearTimeout(timer);
  }
}
