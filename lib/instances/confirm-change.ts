import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { log } from "../log";
import { runtime } from "../runtime/runtime";
import { fenceSentence, type FenceResult } from "./fence";
import { LAPSE_MARGIN_MS, LEASE_MS } from "./lease";

export interface Confirmation {
  /** What the dashboard says: "Confirmed by 3 of 3 instances in 14 ms." */
  sentence: string;
  /** What the operator CLI prints; `waitedMs` when the fence could not be asked and a lease was waited out. */
  instances: FenceResult | { waitedMs: number };
}

/**
 * Called after a change that may refuse a key (a revoke, a rotation, an edit of what a key may do, a leak report,
 * a member removed, a team deleted) has committed, by the dashboard's actions and the operator CLI: returns once
 * every instance serving the API has applied it (lib/instances/fence.ts). Null on SQLite, where there is one
 * instance and it reads the change at once.
 *
 * If the fence itself fails (the database went away after the change committed), it waits out a lease and a
 * margin instead: by then every instance has either heartbeated after the change, and so applied it, or stopped
 * trusting its cache. Either way, the caller's answer comes after the change holds everywhere.
 */
export async function confirmChange(): Promise<Confirmation | null> {
  try {
    const result = await runtime().confirmChange();
    return result && { sentence: fenceSentence(result), instances: result };
  } catch (error) {
    log.warn("instances.fence_failed", { error: String((error as Error)?.message) });
    const waitedMs = LEASE_MS + LAPSE_MARGIN_MS;
    await sleep(waitedMs);
    return {
      sentence: `Every instance has applied it or stopped trusting its cache (the confirmation could not be asked for: waited ${waitedMs.toLocaleString("en-US")} ms).`,
      instances: { waitedMs },
    };
  }
}
