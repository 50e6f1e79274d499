import "server-only";
import type { Runtime } from "../runtime/create-runtime";
import { runtime } from "../runtime/runtime";
import { asFetchHandler, createGate, type GateServices, type PublicApiHandler } from "./gate";

// The gate the app serves, with the runtime's stores: keys cached in this
// instance (and checked against the database on every request), the rate-limit
// store the configuration names, and the usage buffer.

/** The stores the app's gate is built with; the benchmark builds its variants from them too. */
export function gateServices(runtime: Runtime): GateServices {
  return { keys: runtime.keys, rateLimits: runtime.rateLimits, usage: runtime.usage, decoys: runtime.decoyAlerts };
}

/**
 * The app's gate on this process's runtime, answering with a standard
 * Response: for tests, which call the public API without a server. (Building
 * a gate is a closure over the runtime's stores; the cache is the runtime's.)
 */
export const handlePublicRequest: PublicApiHandler = (request) =>
  asFetchHandler(createGate(gateServices(runtime())))(request);
