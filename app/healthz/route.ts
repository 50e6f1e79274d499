import { databaseHealth } from "@/lib/health";
import { runtime } from "@/lib/runtime/runtime";

// Internal and unauthenticated: load balancers and uptime checks call it.
export const dynamic = "force-dynamic";

// GET /healthz
export function GET() {
  return databaseHealth(runtime().db);
}
