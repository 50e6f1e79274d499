import "server-only";
import type pg from "pg";
import { createDatabase, type Database, type Db } from "../database-client";
import { databaseTarget, sqliteFile, type Provider } from "../db-target";
import type { Env } from "../env-schema";
import { getEnv } from "../env";
import { createPasswordCheckLimit } from "../auth/password";
import type { ConcurrencyLimit } from "../concurrency-limit";
import { createUploadSlots, type UploadSlots } from "../files/upload-slots";
import { createGatePool } from "../gate-pool";
import { startGenerationWorker } from "../generations/start-worker";
import { createRequestScope, type RequestScope } from "../http/request-scope";
import { createUploadFlows, type CollectGarbage, type UploadFlows } from "../http/upload-flow";
import { createDecoyAlerts, type DecoyAlerts } from "../keys/decoy";
import { cachedKeyLookup, type CachedKeyLookup, type KeyLookup } from "../keys/key-cache";
import { postgresKeyStore, sqliteKeyStore, type KeyStore } from "../keys/key-store";
import { raiseFence, raiseFenceOnOwnConnection, listenerChannel, type FenceResult } from "../instances/fence";
import { createInstanceListener, type InstanceListener } from "../instances/listener";
import { createMailJob, type MailJob } from "../mail/start-mail-job";
import { smtpTransports } from "../mail/transport";
import { startMaintenance } from "../maintenance/start-maintenance";
import { readBacklog } from "../metrics/backlog";
import { startMetricsListener, type MetricsListener } from "../metrics/listener";
import type { Metrics, MetricSources } from "../metrics/registry";
import type { RateLimitStore } from "../public-api/rate-limit";
import { createRateLimitStore } from "../public-api/rate-limit-stores";
import { retryingStaleSnapshots } from "../sqlite-snapshot-retry";
import { createTracing, type Tracing } from "../tracing/tracing";
import type { UsageBuffer } from "../usage/buffer";
import { closeUsage, createUsageBuffer, createUsageWriter, type UsageWriter } from "../usage/usage-sink";

// The wiring diagram: every object the process keeps for its lifetime
// (database clients, stores, caches, buffers, background jobs) is made here,
// and nowhere else. server.mjs calls createRuntime once, serves the public API
// with it and publishes it for Next's side (lib/runtime/runtime.ts); a test or
// the benchmark creates its own. Each part is made on first use, so a process
// that never serves a request (`next build`, a test of one part) opens nothing.

export interface Runtime {
  readonly env: Env;
  readonly provider: Provider;
  /** The ORM client (its updates of a key raise the key's version: lib/database-client.ts). */
  readonly db: Db;
  /** The public API's own PostgreSQL pool, for its prepared statements and usage batches (PostgreSQL only). */
  readonly gatePool: pg.Pool;
  /** The database's keys, through the gate's own prepared statements (lib/keys/key-store.ts), uncached. */
  readonly keyStore: KeyStore;
  /**
   * The gate's keys, cached here: served without the database while SQLite's change mark or, on PostgreSQL,
   * this instance's lease says nothing changed them; else checked against the database's version.
   */
  readonly keys: KeyLookup;
  /** PostgreSQL: this instance's change listener, registration and lease (lib/instances/listener.ts); null on SQLite. */
  readonly instance: InstanceListener | null;
  /**
   * After a change to a key or a membership has committed: returns once every live instance has applied it
   * (lib/instances/fence.ts). Null on SQLite, where this process is the only instance and reads the change at once.
   */
  confirmChange(): Promise<FenceResult | null>;
  readonly rateLimits: RateLimitStore;
  readonly usage: UsageBuffer;
  /** Each request Next answers, as server.mjs runs it: whether the database was busy for it (lib/http/busy-page.ts). */
  readonly requestScope: RequestScope;
  readonly usageWriter: UsageWriter;
  readonly uploadFlows: UploadFlows;
  /** Uploads in progress per key, bounded (UPLOADS_PER_KEY). */
  readonly uploadSlots: UploadSlots;
  /** Decoy keys' uses, queued for their alerts. */
  readonly decoyAlerts: DecoyAlerts;
  /** Argon2 checks at once, bounded: each takes 19 MiB (lib/auth/password.ts). */
  readonly passwordChecks: ConcurrencyLimit;
  readonly mailJob: MailJob;
  readonly smtpTransport: ReturnType<typeof smtpTransports>;
  /** The Prometheus metrics (lib/metrics), once startMetrics made them (METRICS_PORT set); null otherwise, and nothing is counted. */
  readonly metrics: Metrics | null;
  /** The metrics' own listener, once startMetrics opened it. */
  readonly metricsListener: MetricsListener | null;
  /**
   * Traces (lib/tracing), when OTEL_EXPORTER_OTLP_ENDPOINT is set: its SDK is loaded then, in the background, and only
   * then. Null otherwise, and nothing is traced.
   */
  readonly tracing: Tracing | null;
  /**
   * Where METRICS_PORT is set: loads the metrics and opens their listener. server.mjs awaits it before it builds the
   * gate, which counts for them from then on (the benchmark and the tests too); does nothing without METRICS_PORT.
   */
  startMetrics(): Promise<void>;
  /** Starts this instance's background work: the change listener, the generation worker, pruning and the mail job. */
  startBackgroundJobs(): void;
  /** Stops the background work and writes what the usage buffer holds (server.mjs, on SIGTERM). */
  close(): Promise<void>;
  /** Whether close() has begun: the instance is shutting down, and readiness says so (lib/health.ts). */
  readonly closing: boolean;
}

export interface RuntimeOptions {
  /** V8's young-generation collection, for uploads (lib/http/upload-flow.ts); server.mjs exposes it. */
  collectGarbage?: CollectGarbage;
}

/** Made on first read, then kept; `peek` answers what was made without making it (the metrics read it). */
function once<T>(make: () => T): (() => T) & { peek(): T | undefined } {
  let made: { value: T } | undefined;
  return Object.assign(() => (made ??= { value: make() }).value, { peek: () => made?.value });
}

export function createRuntime(env: Env = getEnv(), options: RuntimeOptions = {}): Runtime {
  const requestScope = createRequestScope();
  const pools = { poolSize: env.DATABASE_POOL_SIZE, timeoutMs: env.DATABASE_TIMEOUT_MS };
  const database = once<Database>(() => {
    const made = createDatabase(env.DATABASE_URL, { ...pools, onBusy: () => requestScope.markDatabaseBusy() });
    // A transaction whose snapshot another connection made stale runs again (lib/sqlite-snapshot-retry.ts).
    return made.provider === "sqlite" ? { ...made, client: retryingStaleSnapshots(made.client) } : made;
  });
  const gatePool = once(() => createGatePool(env.DATABASE_URL, pools));
  const keyStore = once<KeyStore>(() => {
    const target = databaseTarget(env.DATABASE_URL, process.cwd());
    return target.provider === "sqlite"
      ? sqliteKeyStore(sqliteFile(target.url, process.cwd()))
      : postgresKeyStore(gatePool());
  });
  const isPostgres = once(() => databaseTarget(env.DATABASE_URL, process.cwd()).provider === "postgres");
  const instance: ReturnType<typeof once<InstanceListener | null>> = once(() =>
    isPostgres()
      ? createInstanceListener({ databaseUrl: env.DATABASE_LISTEN_URL ?? env.DATABASE_URL, cache: () => keys() })
      : null,
  );
  const keys: ReturnType<typeof once<CachedKeyLookup>> = once(() =>
    cachedKeyLookup(keyStore(), { trust: instance() ?? undefined }),
  );
  const rateLimits = once(() =>
    createRateLimitStore({ redisUrl: env.REDIS_URL, provider: database().provider, gatePool }),
  );
  const usageWriter = once(() => createUsageWriter(env.DATABASE_URL, gatePool));
  const usage = once(() => createUsageBuffer(usageWriter()));
  const uploadFlows = once(() => createUploadFlows(options.collectGarbage));
  const uploadSlots = once(createUploadSlots);
  const decoyAlerts = once(createDecoyAlerts);
  const passwordChecks = once(createPasswordCheckLimit);
  const metricSources: MetricSources = {
    keyCache: () => keys.peek()?.stats ?? null,
    rateLimits: () => rateLimits.peek()?.roundTrips?.() ?? null,
    usage: () => usage.peek()?.snapshot() ?? null,
    instance: () => instance.peek()?.stats ?? null,
    pools: () => {
      const pools: { pool: "orm" | "gate"; made: pg.Pool | undefined }[] = [
        { pool: "orm", made: database.peek()?.pool },
        { pool: "gate", made: gatePool.peek() },
      ];
      return pools.flatMap(({ pool, made }) =>
        made ? [{ pool, total: made.totalCount, idle: made.idleCount, waiting: made.waitingCount }] : [],
      );
    },
    backlog: () => readBacklog(database().client),
  };
  /** Made by startMetrics, where METRICS_PORT is set. */
  let metricsMade: Metrics | null = null;
  const metrics = () => metricsMade;
  const tracing = once(() =>
    env.OTEL_EXPORTER_OTLP_ENDPOINT === undefined
      ? null
      : createTracing({ endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: env.OTEL_SERVICE_NAME }),
  );
  const mailJob = once(() => createMailJob(env, (result) => metrics()?.mailRun(result), tracing()));
  const smtpTransport = smtpTransports();
  const stops: (() => unknown)[] = [];
  let metricsListener: MetricsListener | null = null;
  let usageStarted = false;
  let closing = false;

  return {
    env,
    get provider() {
      return databaseTarget(env.DATABASE_URL, process.cwd()).provider;
    },
    get db() {
      return database().client;
    },
    get gatePool() {
      return gatePool();
    },
    get keyStore() {
      return keyStore();
    },
    get keys() {
      return keys();
    },
    get instance() {
      return instance();
    },
    async confirmChange() {
      if (!isPostgres()) return null;
      const listener = instance();
      const channel = listener && listenerChannel(listener, gatePool());
      const result = await (channel
        ? raiseFence(channel)
        : raiseFenceOnOwnConnection(env.DATABASE_LISTEN_URL ?? env.DATABASE_URL));
      metrics()?.fenceRaised(result);
      return result;
    },
    get rateLimits() {
      return rateLimits();
    },
    get usage() {
      usageStarted = true;
      return usage();
    },
    requestScope,
    get usageWriter() {
      return usageWriter();
    },
    get uploadFlows() {
      return uploadFlows();
    },
    get uploadSlots() {
      return uploadSlots();
    },
    get decoyAlerts() {
      return decoyAlerts();
    },
    get passwordChecks() {
      return passwordChecks();
    },
    get mailJob() {
      return mailJob();
    },
    smtpTransport,
    get metrics() {
      return metrics();
    },
    get metricsListener() {
      return metricsListener;
    },
    get tracing() {
      return tracing();
    },
    async startMetrics() {
      if (env.METRICS_PORT === undefined || metricsListener) return;
      // lib/metrics is loaded only here: prom-client, and what it loads, stay out of a process without metrics.
      const { loadMetrics } = await import("../metrics/registry");
      if (metricsListener) return;
      metricsMade ??= await loadMetrics(metricSources);
      const listener = startMetricsListener({
        registry: metricsMade.registry,
        host: env.METRICS_HOST,
        port: env.METRICS_PORT,
        baseUrl: env.PUBLIC_BASE_URL,
      });
      metricsListener = listener;
      stops.push(() => listener.close());
    },
    startBackgroundJobs() {
      instance()?.start();
      const worker = startGenerationWorker(env, database().client, tracing());
      if (worker) stops.push(() => worker.stop());
      const maintenance = startMaintenance(
        env.MAINTENANCE_INTERVAL_SECONDS * 1000,
        (counts) => metrics()?.pruned(counts),
        tracing(),
      );
      if (maintenance) stops.push(() => maintenance.stop());
      mailJob().start();
      stops.push(() => mailJob().stop());
    },
    get closing() {
      return closing;
    },
    async close() {
      closing = true;
      for (const stop of stops.splice(0)) stop();
      // Leaves the instances' table: fences stop waiting for this one at once.
      await instance()?.close();
      // Only a buffer that was used has anything to write (and logs its totals, which the benchmark reads).
      if (usageStarted) await closeUsage(usage(), usageWriter());
      // Sends the spans still waiting for their batch.
      await tracing.peek()?.close();
    },
  };
}
