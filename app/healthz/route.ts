import { liveness } from "@/lib/health";

// Internal and unauthenticated: load balancers, orchestrators and uptime checks call it; an API key in a credential
// header is refused before it runs, as on every path off the public API.
export const dynamic = "force-dynamic";

// GET /healthz: liveness, which asks nothing of the database (lib/health.ts); /readyz says whether it can serve.
export function GET() {
  return liveness();
}
