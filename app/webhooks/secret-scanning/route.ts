import { z } from "zod";
import { refuseApiKey } from "@/lib/web/guard";
import { getEnv } from "@/lib/env";
import { errorResponse } from "@/lib/errors/error-response";
import { actOnReportedToken, publicUrl, tokenHash } from "@/lib/keys/leak-reports";
import { log } from "@/lib/log";
import { signedByGitHub } from "@/lib/secret-scanning/signature";

export const dynamic = "force-dynamic";

// POST /webhooks/secret-scanning: GitHub's secret-scanning partner endpoint.
// One of the two documented routes that take neither an API key nor a
// session (docs/security.md, "Sessions and keys never mix"): it is authenticated by its
// signature over the raw body. A key in a credential header is still refused,
// as everywhere outside the public API; a key in the body is what it is for.

const MAX_BODY_BYTES = 1024 * 1024;

const reportSchema = z
  .array(
    z.object({
      token: z.string().min(1).max(1_000),
      type: z.string().max(200),
      url: z.string().max(2_000).nullish(),
      source: z.string().max(200).nullish(),
    }),
  )
  .min(1)
  .max(1_000);

export async function POST(request: Request) {
  const refused = refuseApiKey(request.headers);
  if (refused) return refused;
  const baseUrl = getEnv().PUBLIC_BASE_URL;
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) {
    return errorResponse("payload_too_large", { baseUrl, message: "A report is at most 1 MiB." });
  }
  const body = new Uint8Array(await request.arrayBuffer());
  if (body.byteLength > MAX_BODY_BYTES) {
    return errorResponse("payload_too_large", { baseUrl, message: "A report is at most 1 MiB." });
  }
  if (!signedByGitHub(body, request.headers)) {
    // The identifier's start is enough to tell GitHub's keys apart (they are
    // 64 hex digits, which the log scan rightly treats as a digest).
    log.warn("secret_scanning.refused", {
      key_identifier_prefix: request.headers.get("github-public-key-identifier")?.slice(0, 12) ?? null,
    });
    return errorResponse("invalid_signature", { baseUrl });
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return errorResponse("invalid_request", { baseUrl, message: "The body is not JSON." });
  }
  const report = reportSchema.safeParse(json);
  if (!report.success) {
    const issue = report.error.issues[0]!;
    return errorResponse("invalid_request", {
      baseUrl,
      message: `The body is not a list of {token, type, url, source} matches: ${issue.message}`,
      param: issue.path.join("."),
    });
  }
  // One at a time, in the report's order: the answer lists them in that order.
  const labels = [];
  for (const match of report.data) {
    const label = await actOnReportedToken(match.token, { source: "secret-scanning", url: publicUrl(match.url) });
    labels.push({ token_hash: tokenHash(match.token), token_type: match.type, label });
  }
  log.info("secret_scanning.report", {
    matches: labels.length,
    true_positives: labels.filter((entry) => entry.label === "true_positive").length,
  });
  return Response.json(labels, { headers: { "Cache-Control": "no-store" } });
}
