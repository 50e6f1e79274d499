import "server-only";
import { after } from "next/server";
import { log } from "./log";

/**
 * Runs `work` once the response has been sent (Next's `after()`), so neither
 * how long it takes nor which branch it takes can be read from the response
 * time. Used where the answer must not tell whether an address has an
 * account. A failure is logged by name only; the work must be safe to lose,
 * since the person can ask again.
 */
export function afterResponse(task: string, work: () => Promise<unknown>): void {
  after(async () => {
    try {
      await work();
    } catch (error) {
      log.error("after_response.failed", { task, error: error instanceof Error ? error.name : "unknown" });
    }
  });
}
