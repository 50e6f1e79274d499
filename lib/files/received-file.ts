// An uploaded file as the server received it, kept apart from the busboy
// reader (lib/public-api/multipart.ts, server-only) so the route registry's form
// schema can name it.

export interface ReceivedFile {
  /** The temporary file holding the bytes; the caller moves it into place or removes it. */
  path: string;
  filename: string;
  mimeType: string;
  bytes: number;
  truncated: boolean;
}

export function isReceivedFile(value: unknown): value is ReceivedFile {
  return (
    typeof value === "object" &&
    value !== null &&
    "path" in value &&
    typeof value.path === "string" &&
    "filename" in value &&
    typeof value.filename === "string" &&
    "mimeType" in value &&
    typeof value.mimeType === "string" &&
    "bytes" in value &&
    typeof value.bytes === "number" &&
    "truncated" in value &&
    typeof value.truncated === "boolean"
  );
}
