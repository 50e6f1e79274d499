// One request as bytes on its own connection, and the status the server
// answered: node:http's client refuses to send a bad method, path or header,
// and the flood sends those on purpose. The answer is read only as far as its
// status line (and its Retry-After), then the connection is dropped.
import { connect } from "node:net";

export interface RawAnswer {
  /** The status, or "closed" (the connection ended without one) or "timeout". */
  status: number | "closed" | "timeout";
  retryAfter: string | null;
}

const ANSWER_TIMEOUT_MS = 30_000;

export function sendRaw(host: string, port: number, bytes: Buffer): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let head = "";
    let settled = false;
    const settle = (answer: RawAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => settle({ status: "timeout", retryAfter: null }), ANSWER_TIMEOUT_MS);
    // Written, not ended: Node's server takes a half-closed connection for an aborted request and drops its answer.
    socket.on("connect", () => socket.write(bytes));
    socket.on("data", (chunk) => {
      head += chunk.toString("latin1");
      const end = head.indexOf("\r\n\r\n");
      if (end === -1 && head.length < 65_536) return;
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      const retryAfter = /\r\nretry-after: *([^\r\n]*)/i.exec(head.slice(0, end === -1 ? undefined : end));
      settle({ status: status ? Number(status[1]) : "closed", retryAfter: retryAfter?.[1] ?? null });
    });
    socket.on("error", () => settle({ status: "closed", retryAfter: null }));
    socket.on("close", () => {
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      settle({ status: status ? Number(status[1]) : "closed", retryAfter: null });
    });
  });
}

/** A well-formed HTTP/1.1 request: one per connection, its Content-Length always true. */
export function httpRequest(
  method: string,
  target: string,
  host: string,
  headers: [string, string][] = [],
  body: Buffer | string = "",
): Buffer {
  const payload = Buffer.isBuffer(body) ? body : Buffer.from(body, "utf8");
  const lines = [`${method} ${target} HTTP/1.1`, `Host: ${host}`, "Connection: close"];
  for (const [name, value] of headers) lines.push(`${name}: ${value}`);
  if (payload.length > 0 || method === "POST") lines.push(`Content-Length: ${payload.length}`);
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"), payload]);
}
