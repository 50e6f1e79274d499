import "server-only";
import { db } from "../db";
import { getEnv } from "../env";
import { log } from "../log";
import { errorType, inSpan, type TraceSpan, type Tracer } from "../tracing/tracing";
import { pruneOnce, type PruneCounts } from "./prune";

/**
 * One pruning run with the configured retention, logged; a failure is logged and tried again next time.
 * `span`: the run's trace, when tracing is on (its counts are set on it).
 */
export async function runMaintenance(now = new Date(), span?: TraceSpan) {
  const env = getEnv();
  try {
    const counts = await pruneOnce(
      db,
      {
        filesRetentionDays: env.FILES_RETENTION_DAYS,
        generationRetentionDays: env.GENERATION_RETENTION_DAYS,
        usageRetentionDays: env.USAGE_RETENTION_DAYS,
      },
      now,
    );
    span?.set(Object.fromEntries(Object.entries(counts).map(([table, rows]) => [`keyport.pruned.${table}`, rows])));
    log.info("maintenance.pruned", { ...counts, trace_id: span?.traceId });
    return counts;
  } catch (error) {
    span?.fail(errorType(error));
    log.error("maintenance.prune_failed", { error: String((error as Error)?.message), trace_id: span?.traceId });
    return null;
  }
}

export interface Maintenance {
  stop(): void;
}

/**
 * Prunes on a schedule in this instance (server.mjs starts it through the
 * runtime, with the generation worker, and WORKER_DISABLED=1 turns both off).
 * The timer does not keep the process alive. `onPruned` hears each run's counts (the metrics);
 * with a `tracer`, each run is a trace (`maintenance.run`).
 */
export function startMaintenance(
  intervalMs = getEnv().MAINTENANCE_INTERVAL_SECONDS * 1000,
  onPruned: (counts: PruneCounts) => void = () => {},
  tracer: Tracer | null = null,
): Maintenance | undefined {
  if (getEnv().WORKER_DISABLED === "1") return undefined;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    const counts = await inSpan(tracer, "maintenance.run", (span) => runMaintenance(new Date(), span));
    if (counts) onPruned(counts);
    running = false;
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer) };
}
