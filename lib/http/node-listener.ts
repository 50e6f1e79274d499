// The one adapter between Node's HTTP server and the public API's fetch-style
// handler (Request in, answer out): @hono/node-server's request listener.
// server.mjs (through the bundle, lib/public-api/server-entry.ts) and the
// integration tests' API server (tests/helpers/api-server.ts) both use it, so
// what the tests prove is what production serves.
import type { IncomingMessage, ServerResponse } from "node:http";
import { getRequestListener, RequestError } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { TextReply, type ApiAnswer } from "./text-reply";
import { PEER_IP_HEADER } from "./screen-request.mjs";
import { FLOW_HEADER } from "./upload-flow";

export type AnswerHandler = (request: Request) => ApiAnswer | Promise<ApiAnswer>;
export type NodeListener = (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void>;

/**
 * `handle` answers every request. `onError` answers what `handle` could not:
 * a request that cannot become a Request at all (no or a malformed Host
 * header: `malformed` is true), or an error `handle` threw; it must not throw.
 */
export function nodeListener(
  handle: AnswerHandler,
  onError: (problem: { malformed: boolean; error: unknown }) => Response,
): NodeListener {
  const listener = getRequestListener(
    (request, { outgoing }) => {
      const answer = handle(request);
      return answer instanceof Promise
        ? answer.then((settled) => write(settled, outgoing as ServerResponse))
        : write(answer, outgoing as ServerResponse);
    },
    {
      // Hono can swap in its own lighter Request and Response globals; Next runs
      // in the same process and must keep the standard ones.
      overrideGlobalObjects: false,
      errorHandler: (error) => onError({ malformed: error instanceof RequestError, error }),
    },
  );
  return (incoming, outgoing) => {
    // The peer address comes from the socket, never from a client's header of that name.
    incoming.headers[PEER_IP_HEADER] = incoming.socket?.remoteAddress ?? "unknown";
    serverHeadersOnly(incoming);
    return listener(incoming, outgoing);
  };
}

/**
 * A TextReply goes to the socket as it is, headers and body in one call (to a
 * HEAD request Node sends the headers only, Content-Length as for GET); a
 * Response (a stream, a file) goes back to Hono, which writes it.
 */
function write(answer: ApiAnswer, outgoing: ServerResponse): Response {
  if (!(answer instanceof TextReply)) return answer;
  const headers = answer.headers;
  headers.push("Content-Length", String(Buffer.byteLength(answer.text)));
  outgoing.writeHead(answer.status, headers).end(answer.text);
  return RESPONSE_ALREADY_SENT;
}

/** Headers only the server writes (the peer address, an upload's pacing token). */
const SERVER_HEADERS = [PEER_IP_HEADER, FLOW_HEADER];

/**
 * Makes the raw header list say what the parsed headers say for the server's
 * own headers: Hono reads single headers from `incoming.headers` (where the
 * server wrote them) but builds a whole Request, as it does to read a body,
 * from `incoming.rawHeaders`, which still holds whatever the client sent.
 */
function serverHeadersOnly(incoming: IncomingMessage) {
  const raw = incoming.rawHeaders;
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (!SERVER_HEADERS.includes(raw[i]!.toLowerCase())) kept.push(raw[i]!, raw[i + 1]!);
  }
  for (const name of SERVER_HEADERS) {
    const value = incoming.headers[name];
    if (typeof value === "string") kept.push(name, value);
  }
  incoming.rawHeaders = kept;
}
