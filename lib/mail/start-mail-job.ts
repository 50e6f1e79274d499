import "server-only";
import type { Env } from "../env-schema";
import { log } from "../log";
import { inSpan, type TraceSpan, type Tracer } from "../tracing/tracing";
import { runMailJob, type MailJobResult } from "./mail-job";

/** One run of the job, its sends and failures on its span. */
async function tracedRun(span: TraceSpan | undefined): Promise<MailJobResult> {
  const result = await runMailJob();
  span?.set({ "keyport.mail.sent": result.sent, "keyport.mail.failed": result.failed });
  return result;
}

export interface MailJob {
  /** Starts sending on an interval, unless MAIL_DISABLED=1; a second call does nothing. */
  start(): void;
  /**
   * Runs the job now, after a message someone is waiting for (a sign-up or
   * reset link) was queued and committed, instead of at the next interval.
   * Does nothing where the job is off; the interval still covers a wake-up
   * that is lost.
   */
  wake(): void;
  stop(): void;
}

/**
 * This instance's mail job; the runtime makes one (lib/runtime/create-runtime.ts) and server.mjs starts it.
 * `onRun` hears each run's sends and failures (the metrics); with a `tracer`, each run is a trace (`mail.run`).
 */
export function createMailJob(
  env: Env,
  onRun: (result: MailJobResult) => void = () => {},
  tracer: Tracer | null = null,
): MailJob {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  const tick = async () => {
    // A slow SMTP server must not pile runs on top of each other; a wake-up
    // during a run asks for one more run after it.
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        onRun(await inSpan(tracer, "mail.run", tracedRun));
      } while (again);
    } catch (error) {
      log.error("mail.job_failed", { error: error instanceof Error ? error.name : "unknown" });
    } finally {
      running = false;
    }
  };
  return {
    start() {
      if (env.MAIL_DISABLED === "1" || timer) return;
      timer = setInterval(() => void tick(), env.MAIL_INTERVAL_SECONDS * 1000);
      timer.unref();
      void tick();
      log.info("mail.job_started", { interval_seconds: env.MAIL_INTERVAL_SECONDS, smtp: Boolean(env.SMTP_URL) });
    },
    wake() {
      if (timer) void tick();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
