import "server-only";
import type { Db } from "../database-client";
import type { Env } from "../env-schema";
import { log } from "../log";
import type { Tracer } from "../tracing/tracing";
import { GenerationWorker } from "./worker";

/**
 * Starts this instance's generation worker (server.mjs, through the runtime), unless WORKER_DISABLED=1; with a
 * `tracer`, each generation it works on is a trace (`generation.process`).
 */
export function startGenerationWorker(env: Env, db: Db, tracer: Tracer | null = null): GenerationWorker | undefined {
  if (env.WORKER_DISABLED === "1") return undefined;
  const worker = new GenerationWorker({ db, tracer });
  worker.start();
  log.info("generation.worker_started", { worker: worker.id });
  return worker;
}
