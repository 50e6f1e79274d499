import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "../db";
import { log } from "../log";
import { inSpan, type TraceSpan, type Tracer } from "../tracing/tracing";
import { renderSandboxOutput } from "./render";

// The generation worker. Any number run at once (one per app instance, or in
// tests several against one database): each claims a generation by a
// compare-and-set update that also takes a lease, so a generation is worked
// on by one worker at a time, and one left "running" by a crashed worker is
// claimed again once its lease has expired.

export const LEASE_MS = 30_000;
/** A generation whose worker died this many times is failed rather than tried forever. */
export const MAX_ATTEMPTS = 3;
/** Prompts holding this marker fail on purpose, so clients can test their error path. */
export const SANDBOX_FAILURE_MARKER = "[sandbox:fail]";

export interface WorkerOptions {
  db: Db;
  id?: string;
  pollMs?: number;
  leaseMs?: number;
  /** Called when this worker starts working on a generation (tests count them). */
  onClaim?: (generationId: string) => void;
  /** With tracing on: each generation worked on is a trace of its own (`generation.process`). */
  tracer?: Tracer | null;
}

export class GenerationWorker {
  readonly id: string;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;

  constructor(private readonly options: WorkerOptions) {
    this.id = options.id ?? `worker_${randomBytes(6).toString("hex")}`;
  }

  /** Claims one generation that is queued, or running with an expired lease. */
  async claim(now = new Date()): Promise<string | null> {
    const { db } = this.options;
    const candidates = await db.generation.findMany({
      where: { OR: [{ status: "queued" }, { status: "running", leaseExpiresAt: { lt: now } }] },
      orderBy: { createdAt: "asc" },
      take: 10,
      select: { id: true, status: true, leaseExpiresAt: true, attempts: true },
    });
    for (const candidate of candidates) {
      if (candidate.status === "running" && candidate.attempts >= MAX_ATTEMPTS) {
        await this.giveUp(candidate, now);
        continue;
      }
      // Only if it is still as we saw it: another worker's claim makes this match nothing.
      const { count } = await db.generation.updateMany({
        where: { id: candidate.id, status: candidate.status, leaseExpiresAt: candidate.leaseExpiresAt },
        data: {
          status: "running",
          leaseOwner: this.id,
          leaseExpiresAt: new Date(now.getTime() + (this.options.leaseMs ?? LEASE_MS)),
          attempts: { increment: 1 },
        },
      });
      if (count === 1) return candidate.id;
    }
    return null;
  }

  private async giveUp(candidate: { id: string; status: string; leaseExpiresAt: Date | null }, now: Date) {
    const { count } = await this.options.db.generation.updateMany({
      where: { id: candidate.id, status: candidate.status, leaseExpiresAt: candidate.leaseExpiresAt },
      data: {
        status: "failed",
        error: JSON.stringify({
          code: "generation_abandoned",
          message: `No worker finished it in ${MAX_ATTEMPTS} attempts.`,
        }),
        completedAt: now,
        leaseOwner: null,
        leaseExpiresAt: null,
      },
    });
    if (count === 1) log.warn("generation.abandoned", { generation_id: candidate.id, worker: this.id });
  }

  /** Runs one claimed generation to succeeded or failed, if this worker still holds its lease. */
  async process(id: string, span?: TraceSpan): Promise<void> {
    const { db } = this.options;
    this.options.onClaim?.(id);
    span?.set({ "keyport.generation_id": id, "keyport.worker": this.id });
    const generation = await db.generation.findUnique({ where: { id } });
    if (!generation || generation.leaseOwner !== this.id) return;
    if (!generation.startedAt)
      await db.generation.updateMany({ where: { id, startedAt: null }, data: { startedAt: new Date() } });
    const failed = generation.prompt.includes(SANDBOX_FAILURE_MARKER);
    const outcome = failed
      ? {
          status: "failed",
          error: JSON.stringify({ code: "sandbox_failure", message: "The prompt asked the sandbox to fail." }),
        }
      : { status: "succeeded", output: JSON.stringify(renderSandboxOutput(generation.model, generation.prompt)) };
    const { count } = await db.generation.updateMany({
      where: { id, leaseOwner: this.id, status: "running" },
      data: { ...outcome, completedAt: new Date(), leaseOwner: null, leaseExpiresAt: null },
    });
    span?.set({ "keyport.generation_status": count === 1 ? outcome.status : "lease_lost" });
    if (count === 1) {
      log.info("generation.finished", {
        generation_id: id,
        status: outcome.status,
        worker: this.id,
        trace_id: span?.traceId,
      });
    }
  }

  /** Claims and processes generations until none are waiting. Returns how many it processed. */
  async drain(): Promise<number> {
    let processed = 0;
    for (;;) {
      if (this.stopped) return processed;
      const id = await this.claim();
      if (!id) return processed;
      // Only a generation worked on is traced: the polls that find none (four a second) are not.
      await inSpan(this.options.tracer, "generation.process", (span) => this.process(id, span));
      processed++;
    }
  }

  start(): void {
    this.stopped = false;
    const tick = async () => {
      if (this.running || this.stopped) return;
      this.running = true;
      try {
        await this.drain();
      } catch (error) {
        log.error("generation.worker_error", { worker: this.id, error: String((error as Error)?.message) });
      } finally {
        this.running = false;
      }
    };
    this.timer = setInterval(() => void tick(), this.options.pollMs ?? 250);
    this.timer.unref?.();
    void tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    while (this.running) await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
