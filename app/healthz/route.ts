import { db } from "@/lib/db";
import { log } from "@/lib/log";

// Internal and unauthenticated: load balancers and uptime checks call it.
export const dynamic = "force-dynamic";

// GET /healthz
export async function GET() {
  const headers = { "Cache-Control": "no-store" };
  try {
    await db.$queryRawUnsafe("SELECT 1");
    return Response.json({ status: "ok" }, { headers });
  } catch (error) {
    // The reason goes to the log only: it can name hosts and users.
    log.error("healthz.database_unreachable", { error: String((error as Error)?.message) });
    return Response.json(
      { status: "unavailable", error: { code: "service_unavailable", message: "The database is not reachable." } },
      { status: 503, headers },
    );
  }
}
