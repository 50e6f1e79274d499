// Server-sent events, sent as they are produced: a pull-based stream (the
// next event is produced only when the previous one was taken), headers that
// keep proxies and compression from buffering it, and a stop as soon as the
// client goes away.
export const STREAM_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  // no-transform keeps compression (and proxies) from holding events back.
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
  Connection: "keep-alive",
};

export interface SseEvent {
  event?: string;
  data: unknown;
}

const encoder = new TextEncoder();

export function encodeSse({ event, data }: SseEvent): Uint8Array {
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  return encoder.encode(`${event ? `event: ${event}\n` : ""}data: ${payload}\n\n`);
}

/** A Response streaming the chunks an async generator yields, already encoded. */
export function streamResponse(
  chunks: AsyncGenerator<Uint8Array>,
  headers: Record<string, string> = STREAM_HEADERS,
): Response {
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, { headers });
}

export async function* sseChunks(events: AsyncIterable<SseEvent>): AsyncGenerator<Uint8Array> {
  for await (const event of events) yield encodeSse(event);
}
