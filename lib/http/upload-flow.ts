// Backpressure for upload bodies, from the handler back to the socket.
//
// The request body reaches the upload handler as a web stream that reads the
// socket in flowing mode, queueing chunks without waiting for the handler to
// take them, so a client faster than the disk would fill memory. The public
// API's listener (lib/public-api/server-entry.ts) registers each multipart
// POST here under a token (in a header only the server sets); the upload
// handler reports the bytes it has consumed, and once the request is WINDOW
// bytes ahead of it, the request is paused, which makes Node stop reading its
// socket, until the handler catches up. The runtime holds the one registry
// (lib/runtime/create-runtime.ts).
import type { IncomingMessage, ServerResponse } from "node:http";

export const FLOW_HEADER = "x-keyport-flow";
export const WINDOW_BYTES = 1024 * 1024;

// Every chunk of an upload is copied once or twice on its way to disk (Node's
// socket buffer, the stream's own copy), and V8 lets up to 64 MiB of such
// off-heap garbage build up before it collects. After every COLLECT_EVERY bytes
// of uploads read, a young-generation collection (about a millisecond) frees
// the chunks already on disk, so memory stays flat under concurrent uploads.
// server.mjs hands the runtime V8's gc; without it (tests) nothing is collected.
const COLLECT_EVERY = 4 * 1024 * 1024;

export type CollectGarbage = (options: { type: "minor" }) => void;

export interface UploadFlows {
  /** Registers a multipart POST to the public API, and paces its body. */
  pace(req: IncomingMessage, res: ServerResponse): void;
  /** The handler's side: report `bytes` of the request with this token consumed. */
  consumed(token: string | null, bytes: number): void;
}

export function createUploadFlows(collect?: CollectGarbage): UploadFlows {
  const flows = new Map<string, { consumed: (bytes: number) => void }>();
  let sinceCollection = 0;
  return {
    pace(req, res) {
      delete req.headers[FLOW_HEADER];
      const multipart = /^multipart\/form-data/i.test(String(req.headers["content-type"] ?? ""));
      if (req.method !== "POST" || !multipart) return;
      const token = `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`;
      req.headers[FLOW_HEADER] = token;
      let delivered = 0;
      let consumed = 0;
      let paused = false;
      // Counted where Node's HTTP parser hands each chunk to the request: a "data"
      // listener of our own would start the body flowing before the handler reads it.
      const push = req.push;
      req.push = function (chunk: Buffer | null, encoding?: BufferEncoding) {
        if (chunk) {
          delivered += chunk.length;
          if (!paused && delivered - consumed > WINDOW_BYTES) {
            paused = true;
            req.pause();
          }
        }
        return push.call(this, chunk, encoding);
      };
      flows.set(token, {
        consumed(bytes) {
          consumed += bytes;
          sinceCollection += bytes;
          if (collect && sinceCollection >= COLLECT_EVERY) {
            sinceCollection = 0;
            collect({ type: "minor" });
          }
          if (paused && delivered - consumed <= WINDOW_BYTES / 2) {
            paused = false;
            req.resume();
          }
        },
      });
      res.on("close", () => {
        flows.delete(token);
        if (paused) req.resume();
      });
    },
    consumed(token, bytes) {
      if (token) flows.get(token)?.consumed(bytes);
    },
  };
}
