import { rm } from "node:fs/promises";
import path from "node:path";
import { getEnv } from "../../env";
import { receiveUpload } from "../multipart";
import { filesRoot, INCOMING_FOLDER, refuseOverQuota, saveUpload } from "../../files/store";
import { withoutUnsafe } from "../../text";
import { declaredLength } from "../body";
import { refuseKeyInStoredValue } from "../credentials";
import { runtime } from "../../runtime/runtime";
import { defineHandler, handlerRoute } from "../define-handler";
import { ownerOf } from "../../owner";

// POST /api/v1/files: multipart/form-data with a "file" field and an optional "purpose"
// (the registry's form schema). The gate has checked the declared size and the content
// type; the body is streamed to disk here, then its fields are validated.
export const uploadFile = defineHandler(handlerRoute("upload_file"))(async ({ request, key, parseForm }) => {
  const env = getEnv();
  const owner = ownerOf(key);
  // Before a byte is written: the declared size must fit what the team has left.
  await refuseOverQuota(owner.teamId, declaredLength(request) ?? 0);
  // One of the key's few slots for uploads in progress (lib/files/upload-slots.ts).
  return runtime().uploadSlots.run(key.id, env.UPLOADS_PER_KEY, async () => {
    const upload = await receiveUpload(request, env.BODY_LIMIT_UPLOAD_BYTES, path.join(filesRoot(), INCOMING_FOLDER));
    try {
      const { file, purpose } = parseForm({ ...upload.fields, file: upload.file });
      // Both are stored with the file: never a key. The name is checked as sent and as stored (control characters
      // removed), since removing one from inside a key would leave the key whole.
      refuseKeyInStoredValue(file.filename, "file", "The file's name");
      refuseKeyInStoredValue(withoutUnsafe(file.filename), "file", "The file's name");
      refuseKeyInStoredValue(purpose, "purpose", "purpose");
      // An empty purpose is no purpose.
      return await saveUpload(owner, file, purpose || null);
    } finally {
      // Moved into place on success; otherwise nothing is left behind.
      if (upload.file) await rm(upload.file.path, { force: true });
    }
  });
});
