import { publicApiMethods } from "@/lib/public-api/app-gate";

// Any other path under /api/v1: 404 not_found from the gate, in the catalog's shape
// Every method is exported so the gate, not Next, answers a wrong one (405 with Allow).
export const dynamic = "force-dynamic";
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = publicApiMethods;
