import { saveUpload } from "../../files/store";
import { ApiError } from "../api-error";
import type { HandlerContext } from "../handler";

// POST /api/v1/files: multipart/form-data with a "file" field and an optional "purpose".
export async function uploadFile({ body, key }: HandlerContext<unknown>) {
  const form = body as FormData;
  const file = form.get("file");
  if (!(file instanceof File)) {
    throw new ApiError("invalid_request", {
      message: 'Send the file in a multipart field named "file".',
      param: "file",
    });
  }
  if (file.size === 0) throw new ApiError("invalid_request", { message: "The file is empty.", param: "file" });
  const purpose = form.get("purpose");
  if (purpose !== null && (typeof purpose !== "string" || purpose.length > 64)) {
    throw new ApiError("invalid_request", {
      message: "purpose must be text of at most 64 characters.",
      param: "purpose",
    });
  }
  const owner = { userId: key.userId, environment: key.environment, apiKeyId: key.id };
  return saveUpload(owner, file, purpose || null);
}
