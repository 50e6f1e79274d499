// Gates for tests, built from the same factory as the app's (lib/public-api/app-gate.ts)
// with the stores a test needs; by default the runtime's own, without usage.
import { db } from "@/lib/db";
import { runtime } from "@/lib/runtime/runtime";
import { cachedKeyLookup, uncachedKeyLookup } from "@/lib/keys/key-cache";
import { databaseKeyStore } from "@/lib/keys/key-store";
import { asFetchHandler, createGate, type GateServices } from "@/lib/public-api/gate";
import { DISCARD_USAGE } from "@/lib/usage/event";

export function testGate(services: Partial<GateServices> = {}) {
  return asFetchHandler(
    createGate({
      keys: uncachedKeyLookup(databaseKeyStore(db)),
      rateLimits: runtime().rateLimits,
      usage: DISCARD_USAGE,
      decoys: runtime().decoyAlerts,
      ...services,
    }),
  );
}

/** A gate with its own key cache, and the cache's hit and miss counts. */
export function cachedTestGate(services: Partial<GateServices> = {}) {
  const keys = cachedKeyLookup(databaseKeyStore(db));
  return { gate: testGate({ keys, ...services }), stats: keys.stats };
}
