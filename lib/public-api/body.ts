import { ApiError } from "./api-error";

export type BodyKind = "json" | "multipart";

/**
 * Reads a request body up to `limit` bytes. A Content-Length over the limit is
 * refused before reading; a body that turns out longer is cut off the moment
 * it passes the limit, so it is never held whole.
 */
export async function readLimitedBody(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  refuseDeclaredOverLimit(request, limit);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      // The client went away (or sent a broken chunked body) before the body's end: its error, not ours.
      throw new ApiError("invalid_request", { message: "The request body ended before its declared end." });
    });
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** The body's declared length, when the client sent one. */
export function declaredLength(request: Request): number | null {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  return Number.isFinite(declared) && declared >= 0 ? declared : null;
}

/** 413 before a byte is read, when the declared length is over the limit. */
export function refuseDeclaredOverLimit(request: Request, limit: number): void {
  const declared = declaredLength(request);
  if (declared !== null && declared > limit) throw tooLarge(limit);
}

function tooLarge(limit: number) {
  return new ApiError("payload_too_large", { message: `The request body is larger than the limit of ${limit} bytes.` });
}

export function requireContentType(request: Request, kind: BodyKind): void {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const expected = kind === "json" ? "application/json" : "multipart/form-data";
  if (type !== expected) {
    throw new ApiError("unsupported_media_type", {
      message: `Send the body as ${expected}${type ? `, not ${type}` : ""}.`,
    });
  }
}

export function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new ApiError("invalid_request", { message: "The request body is not valid JSON." });
  }
}
