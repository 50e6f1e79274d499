import "server-only";
import { db } from "../db";
import { getEnv } from "../env";
import { log } from "../log";
import { pruneOnce } from "./prune";

/** One pruning run with the configured retention, logged; a failure is logged and tried again next time. */
export async function runMaintenance(now = new Date()) {
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
    log.info("maintenance.pruned", { ...counts });
    return counts;
  } catch (error) {
    log.error("maintenance.prune_failed", { error: String((error as Error)?.message) });
    return null;
  }
}

export interface Maintenance {
  stop(): void;
}

/**
 * Prunes on a schedule in this instance (server.mjs starts it through the
 * runtime, with the generation worker, and WORKER_DISABLED=1 turns both off).
 * The timer does not keep the process alive.
 */
export function startMaintenance(intervalMs = getEnv().MAINTENANCE_INTERVAL_SECONDS * 1000): Maintenance | undefined {
  if (getEnv().WORKER_DISABLED === "1") return undefined;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    await runMaintenance();
    running = false;
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer) };
}
