import "server-only";
import { db } from "../db";
import { getEnv } from "../env";
import { log } from "../log";
import { GenerationWorker } from "./worker";

const globalForWorker = globalThis as unknown as { keyportWorker?: GenerationWorker };

/** Starts this instance's generation worker once (instrumentation.ts calls it), unless WORKER_DISABLED=1. */
export function startGenerationWorker(): void {
  if (getEnv().WORKER_DISABLED === "1" || globalForWorker.keyportWorker) return;
  const worker = new GenerationWorker({ db });
  globalForWorker.keyportWorker = worker;
  worker.start();
  log.info("generation.worker_started", { worker: worker.id });
}
