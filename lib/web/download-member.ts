import "server-only";
import { getEnv } from "../env";
import { errorResponse } from "../errors/error-response";
import { memberBySlug, type TeamMember } from "../teams/membership";
import { TWO_FACTOR_REQUIRED_REFUSAL } from "../teams/policies";
import { requireApiSession } from "./guard";

/**
 * Who asks for a team's download (its activity chain or CSV, a key's usage
 * CSV), checked as every internal route is: an API key in a credential header
 * is refused and a browser session is needed (requireApiSession); someone
 * outside the team gets the 404 of a team that does not exist (`notFound`
 * lets a key's download say "No such key." alike); a member the team's
 * two-factor policy holds back is refused. Returns the member, or the answer
 * to send instead.
 */
export async function downloadMember(
  request: Request,
  slug: string,
  notFound = "That team was not found.",
): Promise<TeamMember | Response> {
  const session = await requireApiSession(request);
  if (session instanceof Response) return session;
  const baseUrl = getEnv().PUBLIC_BASE_URL;
  const member = await memberBySlug(session.userId, slug);
  if (!member) return errorResponse("not_found", { baseUrl, message: notFound });
  if (member.twoFactorMissing)
    return errorResponse("invalid_request", { baseUrl, message: TWO_FACTOR_REQUIRED_REFUSAL });
  return member;
}

/** A CSV download: an attachment under this name, never cached or sniffed as anything else. */
export function csvDownload(stream: ReadableStream<Uint8Array>, filename: string): Response {
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
