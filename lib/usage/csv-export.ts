import "server-only";
import { csvRow } from "../csv";
import { displayIp } from "../format-ip";
import { db } from "../db";
import { ownedKeyRowId } from "./owned-key";
import { logSince, requestLogSelect, requestLogWhere, type RequestLogRow } from "./queries";
import type { RequestLogFilter, UsageRange } from "./usage-range";

// A key's request log as CSV, read a page at a time with a keyset cursor
// (createdAt, requestId), newest first, so a month of requests never sits in
// memory and rows pruned meanwhile cannot derail the cursor. The stream pulls
// the next page only when the client has read the last one.

export const CSV_PAGE_SIZE = 1000;

export const CSV_HEADER = [
  "time",
  "request_id",
  "route",
  "status",
  "error_code",
  "latency_ms",
  "ip",
  "user_agent",
] as const;

function toCsv(row: RequestLogRow): string {
  return csvRow([
    row.createdAt.toISOString(),
    row.requestId,
    row.route,
    row.status,
    row.errorCode,
    row.latencyMs,
    // As the page shows it; the log keeps the address as received.
    displayIp(row.ip),
    row.userAgent,
  ]);
}

/** The CSV's text, one chunk for the header and one per page of rows. */
async function* csvChunks(
  where: ReturnType<typeof requestLogWhere>,
  pageSize: number,
  until: Date,
): AsyncGenerator<string> {
  yield csvRow(CSV_HEADER);
  let after: { createdAt: Date; requestId: string } | null = null;
  for (;;) {
    const rows: RequestLogRow[] = await db.usageEvent.findMany({
      where: {
        ...where,
        AND: [
          { createdAt: { lte: until } },
          // The plain bound lets the (keyId, createdAt) index start at the cursor instead of the range's top.
          after ? { createdAt: { lte: after.createdAt } } : {},
          after
            ? {
                OR: [
                  { createdAt: { lt: after.createdAt } },
                  { createdAt: after.createdAt, requestId: { lt: after.requestId } },
                ],
              }
            : {},
        ],
      },
      orderBy: [{ createdAt: "desc" }, { requestId: "desc" }],
      take: pageSize,
      select: requestLogSelect,
    });
    if (rows.length === 0) return;
    yield rows.map(toCsv).join("");
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.createdAt, requestId: last.requestId };
  }
}

/**
 * A key's requests over a range as a stream of CSV (UTF-8), or null when the
 * key is not the user's. `pageSize` is for tests.
 */
export async function usageCsvStream(
  teamId: string,
  publicId: string,
  options: { range: UsageRange; filter?: RequestLogFilter; pageSize?: number },
  now = new Date(),
): Promise<ReadableStream<Uint8Array> | null> {
  const keyId = await ownedKeyRowId(teamId, publicId);
  if (!keyId) return null;
  const where = requestLogWhere(keyId, logSince(options.range, now), options.filter ?? {});
  const chunks = csvChunks(where, options.pageSize ?? CSV_PAGE_SIZE, now);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
