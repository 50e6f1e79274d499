import "server-only";
import type { Db } from "./database-client";
import { log } from "./log";

/** GET /healthz's answer: 200 while `db` answers a query, else 503 with a JSON body (the reason goes to the log only). */
export async function databaseHealth(db: Db): Promise<Response> {
  const headers = { "Cache-Control": "no-store" };
  try {
    await db.$queryRawUnsafe("SELECT 1");
    return Response.json({ status: "ok" }, { headers });
  } catch (error) {
    // The reason can name hosts and users.
    log.error("healthz.database_unreachable", { error: String((error as Error)?.message) });
    return Response.json(
      { status: "unavailable", error: { code: "service_unavailable", message: "The database is not reachable." } },
      { status: 503, headers },
    );
  }
}
