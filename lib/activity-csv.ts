import "server-only";
import { activityText } from "./activity-events";
import type { ActivityKind } from "./activity-events";
import { csvRow } from "./csv";
import { displayIp } from "./format-ip";
import { activityBatches, type ActivityEntry } from "./keys/queries";

// A team's activity as CSV, beside the JSON chain: the same entries the page
// shows, with the same filters, for a spreadsheet. Where each change came from
// (address and browser) only for those the page shows it to. The chain's
// hashes are in the JSON; this is for reading, not for proving.

const BATCH_SIZE = 500;

const HEADER = ["time", "event", "action", "key_id", "by", "count", "details"] as const;
const ORIGIN = ["ip", "user_agent"] as const;

/** Who acted, as a cell: a member's address, the operator, or Keyport (a report, a decoy's use). */
function byCell(entry: ActivityEntry): string {
  if (entry.actorKind === "operator") return "operator (command line)";
  if (entry.actorKind === "report" || entry.actorKind === "keyport") return "Keyport";
  return entry.actorEmail ?? "a former member";
}

/** The team's activity, newest first, a batch of rows at a time (activityBatches): a long history never sits in memory. */
export function activityCsvStream(
  team: { id: string },
  options: { keyId?: string | undefined; kind?: ActivityKind | undefined; showOrigin: boolean },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batches = activityBatches(team, { keyId: options.keyId, kind: options.kind }, BATCH_SIZE);
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(csvRow([...HEADER, ...(options.showOrigin ? ORIGIN : [])])));
        return;
      }
      const next = await batches.next();
      if (next.done) return controller.close();
      const text = next.value
        .map((entry) =>
          csvRow([
            entry.createdAt.toISOString(),
            activityText(entry.action),
            entry.action,
            entry.keyId,
            byCell(entry),
            entry.count,
            entry.details ? JSON.stringify(entry.details) : "",
            ...(options.showOrigin ? [displayIp(entry.ip), entry.userAgent] : []),
          ]),
        )
        .join("");
      controller.enqueue(encoder.encode(text));
    },
    // The reader went away (a closed tab): the generator stops reading.
    async cancel() {
      await batches.return(undefined);
    },
  });
}
