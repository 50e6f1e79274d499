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
import type { RateLimitStore } from "../public-api/rate-limit";
import { createRateLimitStore } from "../public-api/rate-limit-stores";
import { retryingStaleSnapshots } from "../sqlite-snapshot-retry";
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
  /** Starts this instance's background work: the change listener, the generation worker, pruning and the mail job. */
  startBackgroundJobs(): void;
  /** Stops the background work and writes what the usage buffer holds (server.mjs, on SIGTERM). */
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** V8's young-generation collection, for uploads (lib/http/upload-flow.ts); server.mjs exposes it. */
  collectGarbage?: CollectGarbage;
}

/** Made on first read, then kept. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
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
  const instance: () => InstanceListener | null = once(() =>
    isPostgres()
      ? createInstanceListener({ databaseUrl: env.DATABASE_LISTEN_URL ?? env.DATABASE_URL, cache: () => keys() })
      : null,
  );
  const keys: () => CachedKeyLookup = once(() => cachedKeyLookup(keyStore(), { trust: instance() ?? undefined }));
  const rateLimits = once(() =>
    createRateLimitStore({ redisUrl: env.REDIS_URL, provider: database().provider, gatePool }),
  );
  const usageWriter = once(() => createUsageWriter(env.DATABASE_URL, gatePool));
  const usage = once(() => createUsageBuffer(usageWriter()));
  const uploadFlows = once(() => createUploadFlows(options.collectGarbage));
  const uploadSlots = once(createUploadSlots);
  const decoyAlerts = once(createDecoyAlerts);
  const passwordChecks = once(createPasswordCheckLimit);
  const mailJob = once(() => createMailJob(env));
  const smtpTransport = smtpTransports();
  const stops: (() => unknown)[] = [];
  let usageStarted = false;

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
      return channel ? raiseFence(channel) : raiseFenceOnOwnConnection(env.DATABASE_LISTEN_URL ?? env.DATABASE_URL);
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
    startBackgroundJobs() {
      instance()?.start();
      const worker = startGenerationWorker(env, database().client);
      if (worker) stops.push(() => worker.stop());
      const maintenance = startMaintenance(env.MAINTENANCE_INTERVAL_SECONDS * 1000);
      if (maintenance) stops.push(() => maintenance.stop());
      mailJob().start();
      stops.push(() => mailJob().stop());
    },
    async close() {
      for (const stop of stops.splice(0)) stop();
      // Leaves the instances' table: fences stop waiting for this one at once.
      await instance()?.close();
      // Only a buffer that was used has anything to write (and logs its totals, which the benchmark reads).
      if (usageStarted) await closeUsage(usage(), usageWriter());
    },
  };
}
