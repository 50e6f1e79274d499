import "server-only";
import type { Db } from "../database-client";
import type { Env } from "../env-schema";
import { log } from "../log";
import { GenerationWorker } from "./worker";

/** Starts this instance's generation worker (server.mjs, through the runtime), unless WORKER_DISABLED=1. */
export function startGenerationWorker(env: Env, db: Db): GenerationWorker | undefined {
  if (env.WORKER_DISABLED === "1") return undefined;
  const worker = new GenerationWorker({ db });
  worker.start();
  log.info("generation.worker_started", { worker: worker.id });
  return worker;
}
