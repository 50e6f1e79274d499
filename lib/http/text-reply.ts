// An answer whose body is text already in memory, kept as plain data until
// it is written.
//
// The gate answers almost every request with a small JSON body. As a standard
// Response that body becomes a ReadableStream the server reads back, and every
// header goes through the Fetch Headers' validation twice (set, then copied
// out): together more than the rest of a catalog answer (docs/architecture.md:
// "The gate's hot path"). A TextReply is a status, its headers as name/value pairs and the
// text: lib/http/node-listener.ts writes it to the socket in one call (Node
// still checks every header there), and a caller that wants a Response (tests,
// Next's route files) gets a standard one from `toResponse`.

export class TextReply {
  constructor(
    readonly status: number,
    /** Name, value, name, value...: the shape Node's writeHead takes. */
    readonly headers: string[],
    readonly text: string,
  ) {}

  /** A header's value (the last one set), or null. */
  header(name: string): string | null {
    const wanted = name.toLowerCase();
    for (let i = this.headers.length - 2; i >= 0; i -= 2) {
      if (this.headers[i]!.toLowerCase() === wanted) return this.headers[i + 1]!;
    }
    return null;
  }
}

/** What a handler or the gate answers with: a TextReply, or a Response for anything else (streams, files). */
export type ApiAnswer = TextReply | Response;

/** A JSON answer as a TextReply; `headers` are name, value pairs to add. */
export function jsonReply(value: unknown, status = 200, headers: string[] = []): TextReply {
  return new TextReply(status, ["Content-Type", "application/json", ...headers], JSON.stringify(value));
}

function pairs(headers: string[]): [string, string][] {
  const list: [string, string][] = [];
  for (let i = 0; i < headers.length; i += 2) list.push([headers[i]!, headers[i + 1]!]);
  return list;
}

/** The answer as a standard Response (with no body for a HEAD request). */
export function toResponse(answer: ApiAnswer, { head = false } = {}): Response {
  if (answer instanceof Response) return answer;
  return new Response(head ? null : answer.text, { status: answer.status, headers: pairs(answer.headers) });
}
