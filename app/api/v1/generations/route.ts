import { publicApiMethods } from "@/lib/public-api/app-gate";

// POST /api/v1/generations
// Every method is exported so the gate, not Next, answers a wrong one (405 with Allow).
export const dynamic = "force-dynamic";
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = publicApiMethods;
