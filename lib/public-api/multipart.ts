import "server-only";
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { FLOW_HEADER } from "../http/upload-flow";
import { runtime } from "../runtime/runtime";
import { DomainError } from "../domain-error";
import type { ReceivedFile } from "../files/received-file";

// An upload read as it arrives: busboy parses the multipart body and the file
// part is piped straight to a temporary file, so the server holds one chunk
// at a time, never the whole body (it used to hold it twice). The body is
// counted as it streams and cut off the moment it passes the limit.

export interface ReceivedUpload {
  fields: Record<string, string>;
  file: ReceivedFile | null;
}

const MAX_FIELD_BYTES = 1024;

const tooLarge = (limit: number) =>
  new DomainError("payload_too_large", `The request body is larger than the limit of ${limit} bytes.`);
const unreadable = () => new DomainError("invalid_request", "The multipart body could not be read.");

/**
 * Counts the bytes that pass, fails the stream past `limit`, and tells the
 * listener how far the body has been read, so it can hold the rest back
 * (lib/http/upload-flow.ts).
 */
function byteLimit(limit: number, flowToken: string | null) {
  const flows = runtime().uploadFlows;
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      flows.consumed(flowToken, chunk.length);
      callback(seen > limit ? tooLarge(limit) : null, chunk);
    },
  });
}

export async function receiveUpload(request: Request, limit: number, temporaryDir: string): Promise<ReceivedUpload> {
  if (!request.body) throw unreadable();
  await mkdir(temporaryDir, { recursive: true });
  const fields: Record<string, string> = {};
  let file: ReceivedFile | null = null;
  const writes: Promise<void>[] = [];
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      // Browsers and curl send file names as UTF-8.
      defParamCharset: "utf8",
      limits: { files: 1, fields: 8, parts: 12, fieldSize: MAX_FIELD_BYTES, fileSize: limit },
    });
  } catch {
    throw unreadable();
  }
  parser.on("field", (name, value) => {
    fields[name] = value;
  });
  parser.on("file", (name, stream, info) => {
    if (name !== "file" || file) {
      stream.resume(); // not ours: read past it
      return;
    }
    const target = path.join(temporaryDir, `${randomBytes(12).toString("hex")}.partial`);
    const received: ReceivedFile = {
      path: target,
      filename: info.filename ?? "",
      mimeType: info.mimeType,
      bytes: 0,
      truncated: false,
    };
    file = received;
    stream.on("data", (chunk: Buffer) => (received.bytes += chunk.length));
    // busboy stops writing the file at the limit and reads past the rest.
    stream.on("limit", () => (received.truncated = true));
    writes.push(pipeline(stream, createWriteStream(target)));
  });
  try {
    const body = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>);
    await pipeline(body, byteLimit(limit, request.headers.get(FLOW_HEADER)), parser);
    await Promise.all(writes);
    if ((file as ReceivedFile | null)?.truncated) throw tooLarge(limit);
    return { fields, file };
  } catch (error) {
    parser.destroy();
    await Promise.allSettled(writes);
    const written = file as ReceivedFile | null;
    if (written) await rm(written.path, { force: true });
    throw error instanceof DomainError ? error : unreadable();
  }
}
