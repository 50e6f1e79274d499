import { csvDownload, downloadMember } from "@/lib/web/download-member";
import { getEnv } from "@/lib/env";
import { errorResponse } from "@/lib/errors/error-response";
import { keyIdSchema } from "@/lib/keys/key.schema";
import { usageCsvStream } from "@/lib/usage/csv-export";
import { usageCsvQuerySchema } from "@/lib/usage/usage-query.schema";

export const dynamic = "force-dynamic";

// GET /dashboard/[team]/keys/[keyId]/usage.csv?range=7d&status=4xx&route=list_models
// A key's request log as a CSV download, streamed a page at a time. An
// internal route: it checks the browser session itself and refuses a request
// that carries an API key, whatever proxy.ts did before it.
export async function GET(request: Request, { params }: { params: Promise<{ team: string; keyId: string }> }) {
  const { team: slug, keyId: rawKeyId } = await params;
  // Outside the team: the same 404 as a key that does not exist.
  const member = await downloadMember(request, slug, "No such key.");
  if (member instanceof Response) return member;
  const baseUrl = getEnv().PUBLIC_BASE_URL;

  const query = usageCsvQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) {
    const issue = query.error.issues[0]!;
    return errorResponse("invalid_request", { baseUrl, message: issue.message, param: issue.path.join(".") });
  }
  const { range, status, route } = query.data;
  const keyId = keyIdSchema.safeParse(rawKeyId);
  const stream = keyId.success
    ? await usageCsvStream(member.team.id, keyId.data, { range, filter: { statusClass: status, route } })
    : null;
  // Another team's key is "not found", exactly like a key that does not exist.
  if (!keyId.success || !stream) return errorResponse("not_found", { baseUrl, message: "No such key." });

  return csvDownload(stream, `${keyId.data}-usage-${range}.csv`);
}
