import "server-only";
import { getEnv } from "../env";
import { log } from "../log";
import { runMailJob } from "./mail-job";

// On globalThis: instrumentation.ts and the server actions that queue mail are
// separate bundles with their own module instances, but one process.
const globalForMail = globalThis as unknown as { keyportMailJob?: NodeJS.Timeout; keyportMailTick?: () => void };

/** Starts this instance's mail job once (instrumentation.ts calls it), unless MAIL_DISABLED=1. */
export function startMailJob(): void {
  const env = getEnv();
  if (env.MAIL_DISABLED === "1" || globalForMail.keyportMailJob) return;
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
        await runMailJob();
      } while (again);
    } catch (error) {
      log.error("mail.job_failed", { error: error instanceof Error ? error.name : "unknown" });
    } finally {
      running = false;
    }
  };
  globalForMail.keyportMailTick = () => void tick();
  globalForMail.keyportMailJob = setInterval(tick, env.MAIL_INTERVAL_SECONDS * 1000);
  globalForMail.keyportMailJob.unref();
  void tick();
  log.info("mail.job_started", { interval_seconds: env.MAIL_INTERVAL_SECONDS, smtp: Boolean(env.SMTP_URL) });
}

/**
 * Runs this instance's mail job now, after a message someone is waiting for
 * (a sign-up or reset link) was queued and committed, instead of at the next
 * interval. Does nothing where the job is off; the interval still covers a
 * wake-up that is lost.
 */
export function sendQueuedMailSoon(): void {
  globalForMail.keyportMailTick?.();
}
