// One keep-alive HTTP/1.1 connection that sends the same GET over and over,
// one request at a time, for the open-loop client (scripts/bench/open-loop.mjs).
// Node's http client spends about 70 µs of CPU on a request (an
// OutgoingMessage, an IncomingMessage, their streams and events); at the
// fixed rate that took most of a core on a 2-core machine, so the server
// being measured was short of CPU and the client's floor (the ceiling's p99)
// rose to ~10 ms. This sends bytes prepared once and reads only what it must:
// the status code and where the answer ends (Content-Length, or the chunks
// of a chunked body, as the plain node:http ceiling sends). It is not an
// HTTP client: anything else fails the run rather than being guessed at.
import net from "node:net";

const HEADER_END = Buffer.from("\r\n\r\n");

/** The request's bytes, prepared once: `GET path` with Host and Authorization. */
export function getRequestBytes({ host, port, path, authorization }) {
  return Buffer.from(
    `GET ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nAuthorization: ${authorization}\r\nConnection: keep-alive\r\n\r\n`,
    "latin1",
  );
}

const CRLF = Buffer.from("\r\n");

/** A header's value in a header block (latin1), or null. */
function headerValue(head, lowerName) {
  const at = head.toLowerCase().indexOf(`\r\n${lowerName}:`);
  if (at === -1) return null;
  const from = at + lowerName.length + 3;
  const to = head.indexOf("\r\n", from);
  return head.slice(from, to === -1 ? undefined : to).trim();
}

/** Where a chunked body that starts at `from` ends in `data`: -1 while incomplete, NaN if it is not chunked. */
function chunkedEnd(data, from) {
  let at = from;
  for (;;) {
    const lineEnd = data.indexOf(CRLF, at);
    if (lineEnd === -1) return -1;
    const size = Number.parseInt(data.toString("latin1", at, lineEnd), 16);
    if (Number.isNaN(size)) return NaN;
    // The last chunk (size 0) is followed by an empty trailer line.
    const next = lineEnd + 2 + size + 2;
    if (data.length < next) return -1;
    if (size === 0) return next;
    at = next;
  }
}

/** Where the answer whose header block ends at `headEnd` ends in `data`: -1 while incomplete, NaN if unreadable. */
function answerEnd(data, head, headEnd) {
  const length = headerValue(head, "content-length");
  if (length !== null) {
    const end = headEnd + 4 + Number.parseInt(length, 10);
    return data.length < end ? -1 : end;
  }
  if (headerValue(head, "transfer-encoding")?.toLowerCase() === "chunked") return chunkedEnd(data, headEnd + 4);
  return NaN;
}

/**
 * A connection to host:port. `send()` writes one request; `onAnswer(status)`
 * runs once its whole answer has arrived, `onFailure(error)` if the
 * connection fails or an answer cannot be read (the requests it carried are
 * lost: the caller counts them as errors).
 */
export function rawConnection({ host, port, request, onAnswer, onFailure }) {
  const socket = net.connect({ host, port, noDelay: true });
  let pending = null; // bytes of an answer not yet complete
  let failed = false;

  function fail(error) {
    if (failed) return;
    failed = true;
    socket.destroy();
    onFailure(error);
  }

  socket.on("data", (chunk) => {
    let data = pending ? Buffer.concat([pending, chunk]) : chunk;
    pending = null;
    // One request at a time: at most one answer is in `data`, but read in a loop all the same.
    while (data.length > 0) {
      const headEnd = data.indexOf(HEADER_END);
      if (headEnd === -1) {
        pending = data;
        return;
      }
      const head = data.toString("latin1", 0, headEnd);
      const end = answerEnd(data, head, headEnd);
      if (Number.isNaN(end)) return fail(new Error("an answer whose end this client cannot find"));
      if (end === -1) {
        pending = data;
        return;
      }
      onAnswer(Number(head.slice(9, 12)));
      data = data.subarray(end);
    }
  });
  socket.on("error", fail);
  socket.on("close", () => fail(new Error("the connection closed")));

  return {
    send: () => socket.write(request),
    close() {
      failed = true;
      socket.destroy();
    },
  };
}
