// Backpressure for upload bodies, from the handler back to the socket.
//
// Next's request adapter reads a body in flowing mode and queues every chunk
// for the route handler without waiting for it to read them, so a client
// faster than the disk fills memory. server.mjs registers each multipart POST
// to the public API here under a token (in a header only server.mjs sets);
// the upload handler reports the bytes it has consumed, and once the request
// is WINDOW bytes ahead of it, the request is paused, which makes Node stop
// reading its socket, until the handler catches up. Both sides run in the one
// server process, so they meet through globalThis.

export const FLOW_HEADER = "x-keyport-flow";
export const WINDOW_BYTES = 1024 * 1024;

// Every chunk of an upload is copied once or twice on its way to disk (Node's
// socket buffer, Next's copy into its stream), and V8 lets up to 64 MiB of such
// off-heap garbage build up before it collects. After every COLLECT_EVERY bytes
// of uploads read, a young-generation collection (about a millisecond) frees
// the chunks already on disk, so memory stays flat under concurrent uploads.
// server.mjs enables it (see enableUploadCollections); elsewhere it is a no-op.
const COLLECT_EVERY = 4 * 1024 * 1024;
let collect = /** @type {((options: { type: "minor" }) => void) | null} */ (null);
let sinceCollection = 0;

/** @param {(options: { type: "minor" }) => void} gc */
export function enableUploadCollections(gc) {
  collect = gc;
}

/** @typedef {{ consumed: (bytes: number) => void }} UploadFlow */

/** @returns {Map<string, UploadFlow>} */
function flows() {
  const holder = /** @type {{ keyportUploadFlows?: Map<string, UploadFlow> }} */ (globalThis);
  holder.keyportUploadFlows ??= new Map();
  return holder.keyportUploadFlows;
}

/**
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 */
export function paceUploadBody(req, res) {
  delete req.headers[FLOW_HEADER];
  const multipart = /^multipart\/form-data/i.test(String(req.headers["content-type"] ?? ""));
  if (req.method !== "POST" || !multipart || !/^\/api\/v1(beta)?\//.test(req.url ?? "")) return;
  const token = `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`;
  req.headers[FLOW_HEADER] = token;
  let delivered = 0;
  let consumed = 0;
  let paused = false;
  // Counted where Node's HTTP parser hands each chunk to the request: a "data"
  // listener of our own would start the body flowing before Next listens.
  const push = req.push;
  req.push = function (chunk, encoding) {
    if (chunk) {
      delivered += chunk.length;
      if (!paused && delivered - consumed > WINDOW_BYTES) {
        paused = true;
        req.pause();
      }
    }
    return push.call(this, chunk, encoding);
  };
  flows().set(token, {
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
    flows().delete(token);
    if (paused) req.resume();
  });
}

/**
 * The handler's side: report `bytes` of the request with this token consumed.
 * @param {string | null} token
 * @param {number} bytes
 */
export function reportConsumed(token, bytes) {
  if (token) flows().get(token)?.consumed(bytes);
}
