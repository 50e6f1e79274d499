import "server-only";
import type { Runtime } from "../runtime/create-runtime";
import { runtime } from "../runtime/runtime";
import { asFetchHandler, createGate, type GateServices, type PublicApiHandler } from "./gate";

// The gate the app serves, with the runtime's stores: keys cached in this
// instance (and checked against the database on every request), the rate-limit
// store the configuration names, and the usage buffer.

/** The stores the app's gate is built with; the benchmark builds its variants from them too. */
export function gateServices(runtime: Runtime): GateServices {
  const services: GateServices = {
    keys: runtime.keys,
    rateLimits: runtime.rateLimits,
    usage: runtime.usage,
    decoys: runtime.decoyAlerts,
  };
  const metrics = runtime.metrics;
  if (metrics) services.metrics = metrics.gate;
  // Given only when tracing is on: with it off, the gate finds no tracer and traces nothing (lib/public-api/gate-tracing.ts).
  const tracing = runtime.tracing;
  if (tracing) services.tracer = tracing;
  return services;
}

/**
 * The app's gate on this process's runtime, answering with a standard
 * Response: for tests, which call the public API without a server. (Building
 * a gate is a closure over the runtime's stores; the cache is the runtime's.)
 */
export const handlePublicRequest: PublicApiHandler = (request) =>
  asFetchHandler(createGate(gateServices(runtime())))(request);
