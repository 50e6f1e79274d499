// A Response whose body is a string already in memory, kept as that string.
//
// A standard Response turns its body into a ReadableStream when it is made,
// and the server then reads the stream back into bytes: for a small JSON
// answer that round trip costs more than the rest of the request (README:
// "The gate's hot path"). A PreparedResponse is a real Response (status,
// headers, instanceof) made without a body; the server writes the string it
// holds straight to the socket (lib/http/node-listener.ts). Anyone else who
// reads its body (tests, a caller in this process) gets a standard Response's
// answer: every body method is handed to one made from the same string on
// first use.

const prepared = new WeakMap<Response, string>();

export class PreparedResponse extends Response {
  readonly #text: string;
  #standard: Response | undefined;

  constructor(text: string, init: ResponseInit) {
    super(null, init);
    this.#text = text;
    prepared.set(this, text);
  }

  /** The standard Response with this body; made once, on the first read of the body. */
  #full(): Response {
    if (!this.#standard) {
      prepared.delete(this);
      this.#standard = new Response(this.#text, {
        status: this.status,
        statusText: this.statusText,
        headers: this.headers,
      });
    }
    return this.#standard;
  }

  override get body() {
    return this.#full().body;
  }
  override get bodyUsed() {
    return this.#standard?.bodyUsed ?? false;
  }
  override text() {
    return this.#full().text();
  }
  override json() {
    return this.#full().json();
  }
  override arrayBuffer() {
    return this.#full().arrayBuffer();
  }
  override blob() {
    return this.#full().blob();
  }
  override formData() {
    return this.#full().formData();
  }
  override clone(): Response {
    return new PreparedResponse(this.#text, {
      status: this.status,
      statusText: this.statusText,
      headers: new Headers(this.headers),
    });
  }
}

/** A JSON answer, as Response.json makes it, held as its text. */
export function jsonResponse(value: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  return new PreparedResponse(JSON.stringify(value), { ...init, headers });
}

/**
 * The body of a PreparedResponse nobody has read yet, taken for writing (the
 * response's body counts as read from then on); undefined for any other Response.
 */
export function takePreparedBody(response: Response): string | undefined {
  const text = prepared.get(response);
  if (text !== undefined) prepared.delete(response);
  return text;
}
