import { rm } from "node:fs/promises";
import path from "node:path";
import { getEnv } from "../../env";
import { receiveUpload } from "../../files/multipart";
import { filesRoot, refuseOverQuota, saveUpload } from "../../files/store";
import { BIDI_CONTROLS, CONTROL_CHARACTERS } from "../../text";
import { ApiError } from "../api-error";
import { declaredLength } from "../body";
import type { HandlerContext } from "../handler";

// Uploads in progress per key, in this instance: each holds a socket and a
// temporary file, so one key cannot open many at once.
const inProgress = new Map<string, number>();

async function withUploadSlot<T>(keyId: string, limit: number, work: () => Promise<T>): Promise<T> {
  const running = inProgress.get(keyId) ?? 0;
  if (running >= limit) {
    throw new ApiError("rate_limited", {
      message: `This key already has ${limit} uploads in progress. Wait for one to finish, then try again.`,
      headers: { "Retry-After": "1" },
    });
  }
  inProgress.set(keyId, running + 1);
  try {
    return await work();
  } finally {
    const left = (inProgress.get(keyId) ?? 1) - 1;
    if (left > 0) inProgress.set(keyId, left);
    else inProgress.delete(keyId);
  }
}

function purposeOf(value: string | undefined): string | null {
  if (value === undefined || value === "") return null;
  if (value.length > 64 || CONTROL_CHARACTERS.test(value) || BIDI_CONTROLS.test(value)) {
    throw new ApiError("invalid_request", {
      message: "purpose must be text of at most 64 characters, without control characters.",
      param: "purpose",
    });
  }
  return value;
}

// POST /api/v1/files: multipart/form-data with a "file" field and an optional "purpose".
// The gate has checked the declared size and the content type; the body is streamed to disk here.
export async function uploadFile({ request, key }: HandlerContext<unknown>) {
  const env = getEnv();
  const owner = { userId: key.userId, environment: key.environment, apiKeyId: key.id };
  // Before a byte is written: the declared size must fit what the account has left.
  await refuseOverQuota(owner.userId, declaredLength(request) ?? 0);
  return withUploadSlot(key.id, env.UPLOADS_PER_KEY, async () => {
    const upload = await receiveUpload(request, env.BODY_LIMIT_UPLOAD_BYTES, path.join(filesRoot(), ".incoming"));
    try {
      const purpose = purposeOf(upload.fields.purpose);
      if (!upload.file) {
        throw new ApiError("invalid_request", {
          message: 'Send the file in a multipart field named "file".',
          param: "file",
        });
      }
      if (upload.file.bytes === 0)
        throw new ApiError("invalid_request", { message: "The file is empty.", param: "file" });
      return await saveUpload(owner, upload.file, purpose);
    } finally {
      // Moved into place on success; otherwise nothing is left behind.
      if (upload.file) await rm(upload.file.path, { force: true });
    }
  });
}
