import "server-only";
import { after } from "next/server";
import { isDatabaseBusy } from "./database-busy";
import { log } from "./log";

// How long to wait before each new try of work that found the database busy:
// long enough for a burst that filled the pool to drain (a pool's wait is
// DATABASE_TIMEOUT_MS), short enough that a sign-up's mail still comes within
// the minute the person waits for it.
const BUSY_RETRY_DELAYS_MS = [1_000, 3_000, 9_000];

/**
 * Runs `work` once the response has been sent (Next's `after()`), so neither
 * how long it takes nor which branch it takes can be read from the response
 * time. Used where the answer must not tell whether an address has an
 * account. A failure is logged by name only; the work must be safe to lose,
 * since the person can ask again.
 */
export function afterResponse(task: string, work: () => Promise<unknown>): void {
  after(() => runAfterResponse(task, work));
}

/**
 * The part of afterResponse that runs the work: tried again while the
 * database is too busy to answer (a burst that filled the pool), since the
 * person has already been told "check your mail" and cannot see it failed.
 * Any other failure is logged and dropped. The work must be safe to repeat
 * after a busy failure: each try's writes are one transaction, or none.
 */
export async function runAfterResponse(
  task: string,
  work: () => Promise<unknown>,
  delays: readonly number[] = BUSY_RETRY_DELAYS_MS,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await work();
      return;
    } catch (error) {
      const delay = delays[attempt];
      if (delay !== undefined && isDatabaseBusy(error)) {
        log.warn("after_response.busy", { task, attempt: attempt + 1 });
        await new Promise((resolve) => setTimeout(resolve, delay));
        continue;
      }
      log.error("after_response.failed", { task, error: error instanceof Error ? error.name : "unknown" });
      return;
    }
  }
}
